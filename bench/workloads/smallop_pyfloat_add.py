# interpreter overhead: c = x + y on Python floats, 10_000_000 times (twin of the .tsr workload, run by CPython without torch)
import time
x = 1.5
y = 2.5
best = 1e9
for r in range(3):
    t0 = time.perf_counter()
    for i in range(10_000_000):
        c = x + y
    best = min(best, (time.perf_counter() - t0) / 10_000_000)
print('time', best)
