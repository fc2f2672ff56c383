/* tests/unit/unit.h — the unit-test runner's interface.
 * TEST(name) { CHECK(cond); CHECK_EQ_INT(a, b); CHECK_STR(a, b); }
 * Tests register themselves at load time; a test passes when no check fails. */
#ifndef TSR_UNIT_H
#define TSR_UNIT_H
#include <stdint.h>
#include <string.h>

typedef void (*unit_fn)(void);
void unit_register(const char *name, const char *file, unit_fn fn);
int unit_check(int ok, const char *expr, const char *file, int line);
int unit_check_int(long long a, long long b, const char *ea, const char *eb, const char *file, int line);
int unit_check_str(const char *a, const char *b, const char *ea, const char *eb, const char *file, int line);

#define TEST(name)                                                       \
    static void name(void);                                             \
    __attribute__((constructor)) static void unit_reg_##name(void)      \
    { unit_register(#name, __FILE__, name); }                           \
    static void name(void)

#define CHECK(c) unit_check(!!(c), #c, __FILE__, __LINE__)
#define CHECK_EQ_INT(a, b) unit_check_int((long long)(a), (long long)(b), #a, #b, __FILE__, __LINE__)
#define CHECK_STR(a, b) unit_check_str((a), (b), #a, #b, __FILE__, __LINE__)

#endif
