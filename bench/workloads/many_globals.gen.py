# bench/workloads/many_globals.gen.py — writes the many_globals workload (a script that
# assigns N global names, then reads each one); bench/run times the whole run of the
# text under tsr and under CPython (parsing included, as a user waits for it).
import sys
n = int(sys.argv[1]) if len(sys.argv) > 1 else 40000
print("# many_globals: %d global names assigned, then each one read" % n)
for i in range(n):
    print("g%d = %d" % (i, i))
print("s = 0")
for i in range(n):
    print("s = s + g%d" % i)
print("print(s)")
