#!/usr/bin/env bats
# Ctrl-C in every long kernel family: each polls, the statement fails with
# KeyboardInterrupt, the name it assigns keeps its old value, a batch run
# ends with status 130. A write into an existing tensor (in-place, out=,
# copy_, fill_, slice assignment) finishes or changes nothing: after Ctrl-C
# in a loop of in-place ops every element holds the same value. SIGINT comes
# 200 ms after the statement started; no timings are asserted, only a
# generous 10 s for tsr to answer (an op that does not poll runs longer).

load helpers

# batch_interrupt SETUP EXPR — a script runs SETUP, prints go, assigns EXPR to
# x (bound to 5 before); SIGINT 200 ms after go. Status 130, KeyboardInterrupt,
# nothing printed after go.
batch_interrupt() {
    printf 'x = 5\n%s\nprint("go", flush=True)\nx = %s\nprint("assigned", x is None)\n' "$1" "$2" > long.tsr
    run --separate-stderr bash -c '
        "$0" long.tsr >out 2>err &
        pid=$!
        for i in $(seq 1200); do grep -q go out 2>/dev/null && break; sleep 0.05; done
        sleep 0.2
        kill -INT $pid
        for i in $(seq 200); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
        if kill -0 $pid 2>/dev/null; then kill -9 $pid; echo "still running 10 s after SIGINT"; fi
        wait $pid; echo "status $?"; cat out; cat err >&2' "$TSR"
    assert_output $'status 130\ngo'
    [[ "$stderr" == *KeyboardInterrupt* ]] || fail "no KeyboardInterrupt in: $stderr"
}

# pty_interrupt SETUP EXPR — the same at the prompt: KeyboardInterrupt, x
# still 5, the session goes on.
pty_interrupt() {
    need_pty
    PTY_TIMEOUT=10 run pty_tsr <<EOF2
expect >>>\s
send x = 5; $1\r
expect >>>\s
send print('go'); x = $2\r
expect/re ^go$
sleep 0.2
send \x03
expect/re KeyboardInterrupt$
expect >>>\s
send x\r
expect/re ^5$
expect >>>\s
send \x04
eof
EOF2
    assert_success
}

# Long kernels: each runs 20 s or more on a fast machine if it does not poll.
UNARY='torch.i0(torch.rand(1).expand(200_000_000))'
BINARY='torch.special.zeta(torch.rand(40_000_000) + 1.5, 2.0)'
PRINT_SETUP='torch.set_printoptions(threshold=10**10); big = torch.rand(30_000_000)'
PRINT='print(big)'

@test "int-1.1: batch: an elementwise unary kernel (i0)" { batch_interrupt '' "$UNARY"; }
@test "int-1.2: batch: an elementwise binary kernel (special.zeta)" { batch_interrupt '' "$BINARY"; }
@test "int-1.3: batch: printing a 30M-element tensor in full" { batch_interrupt "$PRINT_SETUP" "$PRINT"; }
@test "int-1.4: batch: a Python 'while True: pass'" {
    printf 'x = 5\nprint("go", flush=True)\nwhile True: pass\n' > loop.tsr
    run --separate-stderr bash -c '
        "$0" loop.tsr >out 2>err & pid=$!
        for i in $(seq 1200); do grep -q go out 2>/dev/null && break; sleep 0.05; done
        sleep 0.2; kill -INT $pid
        for i in $(seq 200); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
        kill -0 $pid 2>/dev/null && { kill -9 $pid; echo "still running"; }
        wait $pid; echo "status $?"' "$TSR"
    assert_output "status 130"
}
@test "int-1.5: batch: a 1e9-iteration for loop" { batch_interrupt '' '[i for i in range(10**9)]'; }
@test "int-1.6: batch: a copy to another dtype (to float16, 1 GB)" { batch_interrupt 'big = torch.rand(1).expand(500_000_000)' 'big.to(torch.float16)'; }
@test "int-1.7: batch: a factory (torch.randn)" { batch_interrupt '' 'torch.randn(200_000_000)'; }
@test "int-1.8: batch: an in-place loop ends with status 130" { batch_interrupt 'w = torch.zeros(20_000_000)' '[w.add_(1) for k in range(10**6)]'; }
# reductions, scans, sorting and indexing (inputs expanded from one element
# where the op allows: long runs without the memory)
@test "int-1.9: batch: a full reduction (max of 8e9 elements)" { batch_interrupt 'b = torch.rand(1).expand(8_000_000_000)' 'b.max()'; }
@test "int-1.10: batch: a reduction along a dim (argmax)" { batch_interrupt 'b = torch.rand(1, 1).expand(80_000, 100_000)' 'b.argmax(1)'; }
@test "int-1.11: batch: a scan (logcumsumexp of 200M)" { batch_interrupt 'b = torch.rand(1).expand(200_000_000)' 'b.logcumsumexp(0)'; }
@test "int-1.12: batch: sort of one 30M-element line" { batch_interrupt 'b = torch.rand(30_000_000)' 'b.sort()'; }
@test "int-1.13: batch: kthvalue over 100,000 lines" { batch_interrupt 'b = torch.rand(1, 1).expand(100_000, 10_000)' 'b.kthvalue(5000, 1)'; }
@test "int-1.14: batch: scatter_add of 2.5e9 elements" {
    batch_interrupt 's = torch.ones(1).expand(2_500_000_000); i = torch.zeros(1, dtype=torch.long).expand(2_500_000_000)' 'torch.zeros(1000).scatter_add(0, i, s)'
}
@test "int-1.15: batch: advanced indexing (index_put, 2.5e9 elements)" {
    batch_interrupt 's = torch.ones(1).expand(2_500_000_000); i = torch.zeros(1, dtype=torch.long).expand(2_500_000_000)' 'torch.zeros(1000).index_put((i,), s, accumulate=True)'
}

# a float64 6000^3 matmul: one OpenBLAS gemm of ~25 s if it were one call;
# tsr runs it as panels of 288 columns with a poll between them
MATMUL_SETUP='a = torch.rand(6000, 6000, dtype=torch.float64)'
@test "int-1.16: batch: a 6000x6000 float64 matmul (gemm panels)" { batch_interrupt "$MATMUL_SETUP" 'a @ a'; }

@test "int-2.1: prompt: an elementwise unary kernel (i0)" { pty_interrupt 'pass' "$UNARY"; }
@test "int-2.2: prompt: an elementwise binary kernel (special.zeta)" { pty_interrupt 'pass' "$BINARY"; }
@test "int-2.3: prompt: printing a 30M-element tensor in full" { pty_interrupt "$PRINT_SETUP" "$PRINT"; }
@test "int-2.4: prompt: a 1e9-iteration for loop" { pty_interrupt 'pass' '[i for i in range(10**9)]'; }
@test "int-2.5: prompt: a copy to another dtype (to float16, 1 GB)" { pty_interrupt 'big = torch.rand(1).expand(500_000_000)' 'big.to(torch.float16)'; }
@test "int-2.6: prompt: sort of one 30M-element line" { pty_interrupt 'b = torch.rand(30_000_000)' 'b.sort()'; }
@test "int-2.7: prompt: a reduction along a dim (argmax)" { pty_interrupt 'b = torch.rand(1, 1).expand(80_000, 100_000)' 'b.argmax(1)'; }
@test "int-2.8: prompt: a 6000x6000 float64 matmul (gemm panels)" { pty_interrupt "$MATMUL_SETUP" 'a @ a'; }

# inplace_untorn SETUP LOOP-BODY — w = torch.zeros(20M); a loop of the in-place
# op runs until Ctrl-C; then every element of w holds the same value.
inplace_untorn() {
    need_pty
    PTY_TIMEOUT=10 run pty_tsr <<EOF2
expect >>>\s
send w = torch.zeros(20_000_000); m = torch.ones(20_000_000, dtype=torch.bool); $1\r
expect >>>\s
send print('go'); k = 0\r
expect >>>\s
send while True: k += 1; $2\r
send \r
sleep 0.2
send \x03
expect/re KeyboardInterrupt$
expect >>>\s
send print('same', torch.equal(w, torch.full_like(w, w[0].item())))\r
expect/re ^same True$
expect >>>\s
send \x04
eof
EOF2
    assert_success
}

@test "int-3.1: no torn tensor: binary in-place (add_)" { inplace_untorn 'pass' 'w.add_(1)'; }
@test "int-3.2: no torn tensor: unary in-place (neg_ of 1 + w)" { inplace_untorn 'w.fill_(1)' 'w.neg_()'; }
@test "int-3.3: no torn tensor: out= (torch.add(w, 1, out=w))" { inplace_untorn 'pass' 'torch.add(w, 1, out=w)'; }
@test "int-3.4: no torn tensor: augmented assignment (w += 1)" { inplace_untorn 'pass' 'w += 1'; }
@test "int-3.5: no torn tensor: ternary in-place (addcmul_)" { inplace_untorn 'o = torch.ones(20_000_000)' 'w.addcmul_(o, o)'; }
@test "int-3.6: no torn tensor: copy_" { inplace_untorn 'v = torch.zeros(20_000_000, dtype=torch.float64)' 'v.add_(1); w.copy_(v)'; }
@test "int-3.7: no torn tensor: fill_" { inplace_untorn 'pass' 'w.fill_(k)'; }
@test "int-3.8: no torn tensor: slice assignment (w[:] = k)" { inplace_untorn 'pass' 'w[:] = k'; }
@test "int-3.9: no torn tensor: random in-place (uniform_(k, k))" { inplace_untorn 'pass' 'w.uniform_(k, k)'; }
@test "int-3.10: no torn tensor: masked_fill_" { inplace_untorn 'pass' 'w.masked_fill_(m, k)'; }
@test "int-3.11: no torn tensor: in-place with a dtype cast (float16 += 1)" { inplace_untorn 'w = torch.zeros(20_000_000, dtype=torch.float16)' 'w += 1'; }
