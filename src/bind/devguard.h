/* src/bind/devguard.h — the gate in front of tensors on devices the host
 * cannot read (cuda): only device-aware calls and operators pass
 * (devguard.c). */
#ifndef TSR_BIND_DEVGUARD_H
#define TSR_BIND_DEVGUARD_H
#include <stdbool.h>
#include "device.h"
#include "value.h"

/* The data of built-ins that pass the gate: they reach tensors only through
 * the guarded slots or check the device themselves (Python's print, len,
 * ...; numpy's array, asarray, save: "can't convert cuda:0 device type
 * tensor to numpy"). */
extern const char bind_device_safe_tag;
/* Before a built-in call: 0 to go on, or -1 with NotImplementedError
 * "Could not run 'aten::NAME' with arguments from the 'CUDA' backend..."
 * when an argument (self, positional, keyword, or an item of a list or
 * tuple argument) is a tensor on such a device and fn's implementation is
 * not device-aware. */
int bind_devguard_call(Value *fn, CallArgs *a);
#endif
