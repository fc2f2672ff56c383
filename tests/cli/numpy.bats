#!/usr/bin/env bats
# .npy files against the real NumPy: files tsr's np.save writes are byte for
# byte what NumPy writes and load there, and the reverse (skipped where
# /usr/bin/python3 has no numpy).

load helpers

PY=${TSR_PYTHON:-/usr/bin/python3}

need_numpy() {
    "$PY" -c 'import numpy' 2>/dev/null || skip "no python3 with numpy (the round trips need NumPy)"
}

DTYPES="'float16', 'float32', 'float64', 'int8', 'int16', 'int32', 'int64', 'uint8', 'bool', 'complex64', 'complex128'"

@test "numpy-1.1: np.save of every dtype and layout writes NumPy's bytes" {
    need_numpy
    cat > s.tsr <<TSR
import numpy as np
for i, name in enumerate([$DTYPES]):
    np.save('d%d.npy' % i, np.array([[0, 1, 2], [3, 4, 5]], dtype=name))
np.save('t.npy', np.array([[0., 1., 2.], [3., 4., 5.]]).T)
np.save('s.npy', np.zeros((4, 6), dtype=np.int32)[::2, 1::2])
np.save('z.npy', np.array(2.5, dtype=np.float32))
np.save('e.npy', np.zeros((0, 3)))
np.save('big.npy', np.zeros((123456789012, 0)))
TSR
    run tsr_run s.tsr
    assert_success
    run "$PY" -c "
import numpy as np, io
def same(name, a):
    b = io.BytesIO(); np.save(b, a)
    assert open(name, 'rb').read() == b.getvalue(), name
    assert np.array_equal(np.load(name), a) and np.load(name).dtype == a.dtype, name
for i, name in enumerate([$DTYPES]):
    same('d%d.npy' % i, np.array([[0, 1, 2], [3, 4, 5]], dtype=name))
same('t.npy', np.array([[0., 1., 2.], [3., 4., 5.]]).T)
assert np.load('t.npy').flags.f_contiguous
same('s.npy', np.zeros((4, 6), dtype=np.int32)[::2, 1::2])
same('z.npy', np.array(2.5, dtype=np.float32))
same('e.npy', np.zeros((0, 3)))
same('big.npy', np.zeros((123456789012, 0)))
print('ok')
"
    assert_success
    assert_output "ok"
}

@test "numpy-1.2: files NumPy writes load in tsr (C and Fortran order, big-endian, format 2.0)" {
    need_numpy
    run "$PY" -c "
import numpy as np
from numpy.lib import format as f
a = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
np.save('c.npy', a)
np.save('f.npy', np.asfortranarray(a))
np.save('b.npy', np.arange(4, dtype='>i4'))
np.save('x.npy', (np.arange(3) + 1j).astype(np.complex64))
with open('v2.npy', 'wb') as fh:
    f.write_array(fh, np.array([True, False]), version=(2, 0))
"
    assert_success
    cat > s.tsr <<'TSR'
import numpy as np
np.load('c.npy')
f = np.load('f.npy')
f
f.strides
np.load('b.npy')
np.load('x.npy')
np.load('v2.npy')
TSR
    run tsr_run s.tsr
    assert_success
    assert_output "array([[0.  , 0.25, 0.5 ],
       [0.75, 1.  , 1.25]], dtype=float32)
array([[0.  , 0.25, 0.5 ],
       [0.75, 1.  , 1.25]], dtype=float32)
(4, 8)
array([0, 1, 2, 3], dtype=int32)
array([0.+1.j, 1.+1.j, 2.+1.j], dtype=complex64)
array([ True, False])"
}

@test "numpy-1.3: malformed .npy files are refused with NumPy's ValueError (the messages NumPy 1.24 gives)" {
    printf '\223NUMPY\001\000\020\000{"descr": 5}   \n' > h1.npy
    printf '\223NUMPY\001\000\377\000{' > h2.npy
    printf "\223NUMPY\001\000\102\000{'descr': '<f8', 'fortran_order': False, 'shape': (1000000,), }\n" > h3.npy
    printf 'not an npy file' > h4.npy
    printf "\223NUMPY\011\000" > h5.npy
    cat > s.tsr <<'TSR'
import numpy as np
np.load('h1.npy')
np.load('h2.npy')
np.load('h3.npy')
np.load('h4.npy')
np.load('h5.npy')
TSR
    run tsr_run --keep-going --brief-errors s.tsr
    assert_failure
    assert_line --index 0 "ValueError: Header does not contain the correct keys: ['descr']"
    assert_line --index 1 "ValueError: EOF: reading array header, expected 255 bytes got 1"
    assert_line --index 2 "ValueError: EOF: reading array header, expected 66 bytes got 64"
    assert_line --index 3 "ValueError: Cannot load file containing pickled data when allow_pickle=False"
    assert_line --index 4 "ValueError: we only support format version (1,0), (2,0), and (3,0), not (9, 0)"
}

@test "numpy-1.4: a truncated data block is NumPy's reshape error" {
    printf "import numpy as np\nnp.save('f.npy', np.zeros((3, 2)))\n" > w.tsr
    run tsr_run w.tsr
    assert_success
    head -c 144 f.npy > t.npy
    printf "import numpy as np\nnp.load('t.npy')\n" > s.tsr
    run tsr_run --brief-errors s.tsr
    assert_failure
    assert_output "ValueError: cannot reshape array of size 2 into shape (3,2)"
}
