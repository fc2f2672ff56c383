# interpreter overhead: a bare `for i in range(10_000_000): pass` (twin of the .tsr workload, run by CPython without torch)
import time
best = 1e9
for r in range(3):
    t0 = time.perf_counter()
    for i in range(10_000_000):
        pass
    best = min(best, (time.perf_counter() - t0) / 10_000_000)
print('time', best)
