#!/usr/bin/env bats
# torch.save / torch.load against the real PyTorch: files tsr writes load in
# /usr/bin/python3 with torch, and the reverse (skipped where torch is absent).

load helpers

PY=${TSR_PYTHON:-/usr/bin/python3}

need_torch() {
    "$PY" -c 'import torch' 2>/dev/null || skip "no python3 with torch (the round trips need PyTorch 1.13)"
}

@test "io-1.1: a tsr file loads in PyTorch with the same values, dtypes, strides and sharing" {
    need_torch
    cat > s.tsr <<'TSR'
x = torch.arange(12.).reshape(3, 4)
ts = [(torch.arange(6) - 2).to(d) for d in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
      torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128, torch.bool]]
torch.save({"x": x, "row": x[1], "t": x.t(), "ts": ts, "n": [1, 2.5, None, True, "s", (2, 3)]}, "out.pt")
TSR
    run tsr_run s.tsr
    assert_success
    run "$PY" -c '
import torch
d = torch.load("out.pt")
x = torch.arange(12.).reshape(3, 4)
assert torch.equal(d["x"], x) and torch.equal(d["row"], x[1]) and d["t"].stride() == (1, 4)
assert d["row"].storage_offset() == 4
assert d["x"].storage().data_ptr() == d["row"].storage().data_ptr() == d["t"].storage().data_ptr()
ds = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
      torch.float32, torch.float64, torch.complex64, torch.complex128, torch.bool]
for t, dt in zip(d["ts"], ds):
    assert t.dtype == dt and torch.equal(t, (torch.arange(6) - 2).to(dt)), (t, dt)
assert d["n"] == [1, 2.5, None, True, "s", (2, 3)]
w = torch.load("out.pt", weights_only=False)
print("ok")
'
    assert_success
    assert_output "ok"
}

@test "io-1.2: tsr's files pass PyTorch's weights_only loader and keep 64-byte alignment" {
    need_torch
    printf 'torch.save({"w": torch.ones(3, 3), "b": [torch.zeros(2), 7, "k"]}, "w.pt")\n' > s.tsr
    run tsr_run s.tsr
    assert_success
    run "$PY" -c '
import torch, zipfile, struct
d = torch.load("w.pt", weights_only=True)
assert torch.equal(d["w"], torch.ones(3, 3)) and d["b"][1:] == [7, "k"]
raw = open("w.pt", "rb").read()
z = zipfile.ZipFile("w.pt")
print([i.filename for i in z.infolist()])
for i in z.infolist():
    nl, el = struct.unpack("<HH", raw[i.header_offset + 26:i.header_offset + 30])
    assert (i.header_offset + 30 + nl + el) % 64 == 0, i.filename
    assert i.compress_type == 0
'
    assert_success
    assert_output "['w/data.pkl', 'w/data/0', 'w/data/1', 'w/version']"
}

@test "io-1.3: a PyTorch file loads in tsr" {
    need_torch
    "$PY" -c '
import torch
x = torch.arange(6, dtype=torch.float64).reshape(2, 3)
torch.save({"x": x, "col": x[:, 1], "h": torch.tensor([1.5], dtype=torch.bfloat16)}, "py.pt")
'
    printf 'd = torch.load("py.pt")\nd\nd["col"].storage_offset(), d["col"].stride()\nd["x"].storage().data_ptr() == d["col"].storage().data_ptr()\n' > s.tsr
    run tsr_run s.tsr
    assert_success
    assert_output $'{\'x\': tensor([[0., 1., 2.],\n        [3., 4., 5.]], dtype=torch.float64), \'col\': tensor([1., 4.], dtype=torch.float64), \'h\': tensor([1.5000], dtype=torch.bfloat16)}\n(1, (3,))\nTrue'
}

@test "io-1.4: the legacy format is refused by name, not misread" {
    need_torch
    "$PY" -c 'import torch; torch.save(torch.ones(2), "old.pt", _use_new_zipfile_serialization=False)'
    printf 'torch.load("old.pt")\n' > s.tsr
    run tsr_run --brief-errors s.tsr
    assert_failure
    assert_output --partial "NotImplementedError: tsr does not read the legacy torch.save format"
}

@test "io-1.5: hostile bytes never crash torch.load" {
    printf 'torch.load("bad.pt")\n' > s.tsr
    for i in 1 2 3 4 5 6 7 8; do
        head -c $((i * 97)) /dev/urandom > bad.pt
        printf 'PK\003\004' | dd of=bad.pt conv=notrunc 2>/dev/null
        run tsr_run --brief-errors s.tsr
        [ "$status" -eq 1 ]
    done
}

@test "io-1.6: a record that fails to inflate is named in the error, with libzip's reason (a fuzzer find: the reason was read after libzip freed it)" {
    run --separate-stderr tsr_run -e 'torch.load("'"$BATS_TEST_DIRNAME"'/../io/fixtures/zlib_error.pt")'
    [ "$status" -eq 1 ]
    [[ "$stderr" == *"RuntimeError: PytorchStreamReader failed reading file data.pkl: Zlib error: data error"* ]]
}
