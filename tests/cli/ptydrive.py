#!/usr/bin/env python3
"""ptydrive -- run a command on a pseudo-terminal and script a conversation.

usage: ptydrive.py [-t SECONDS] [--cols N] [--rows N] -- COMMAND [ARG...] < SCRIPT

SCRIPT has one action per line ('#' lines and blank lines are ignored):

  expect TEXT      wait until TEXT appears in the output after the previous match
  expect/re REGEX  the same with a Python regular expression (re.M)
  send TEXT        write TEXT to the terminal
  kill SIGNAL      send a signal (a number or a name: INT, KILL) to the command
  eof              wait for the command to end (done anyway after the last line)
  sleep SECONDS    wait that long (reading the output meanwhile)

TEXT takes the escapes \\r \\n \\t \\e \\s (space) \\\\ and \\xHH, so that "send
x = 1\\r" presses Return, "send \\x03" is Ctrl-C and "send \\x04" is Ctrl-D;
everything after the action's name and one space is used as it stands.

The transcript (all the command wrote, with carriage returns removed) goes to
standard output. The exit status is the command's (128+N when signal N ended
it); 124 when an expect or the final wait timed out (the command is killed and
a message on standard error says what was awaited); 125 on a usage error.
Only the standard library is used: pty, os, select, re, signal.
"""
import os
import pty
import re
import select
import signal
import struct
import sys
import time

try:
    import fcntl
    import termios
except ImportError:  # pragma: no cover
    fcntl = termios = None


def unescape(text):
    out, i = [], 0
    simple = {'r': '\r', 'n': '\n', 't': '\t', 'e': '\x1b', 's': ' ', '\\': '\\'}
    while i < len(text):
        c = text[i]
        if c == '\\' and i + 1 < len(text):
            d = text[i + 1]
            if d in simple:
                out.append(simple[d])
                i += 2
                continue
            if d == 'x' and re.fullmatch(r'[0-9a-fA-F]{2}', text[i + 2:i + 4]):
                out.append(chr(int(text[i + 2:i + 4], 16)))
                i += 4
                continue
        out.append(c)
        i += 1
    return ''.join(out)


class Child:
    def __init__(self, argv, cols, rows):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the pty is its controlling terminal
            try:
                os.execvp(argv[0], argv)
            except OSError as e:
                os.write(2, ('ptydrive: cannot run %s: %s\n' % (argv[0], e.strerror)).encode())
            os._exit(127)
        if fcntl and termios:
            try:
                fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
            except OSError:
                pass
        self.raw = b''
        self.pos = 0          # where the next expect starts looking
        self.closed = False
        self.status = None

    def text(self):
        return self.raw.decode('utf-8', 'replace').replace('\r', '')

    def pump(self, timeout):
        """Read what is available within timeout seconds; False at end of output."""
        if self.closed:
            return False
        r, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not r:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            data = b''
        if not data:
            self.closed = True
            return False
        self.raw += data
        return True

    def expect(self, pattern, is_re, timeout):
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if is_re:
                m = re.compile(pattern, re.M).search(text, self.pos)
                if m:
                    self.pos = m.end()
                    return True
            else:
                k = text.find(pattern, self.pos)
                if k >= 0:
                    self.pos = k + len(pattern)
                    return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if not self.pump(min(left, 0.2)) and self.closed:
                # no more output can come; one last look happened above
                text = self.text()
                if is_re:
                    return bool(re.compile(pattern, re.M).search(text, self.pos))
                return text.find(pattern, self.pos) >= 0

    def send(self, data):
        data = data.encode('utf-8')
        while data:
            _, w, _ = select.select([], [self.fd], [], 5)
            if not w:
                raise OSError('terminal not writable')
            n = os.write(self.fd, data)
            data = data[n:]
            self.pump(0)

    def wait(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            if self.status is None:
                pid, st = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    self.status = st
            if self.status is not None and self.closed:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self.closed:
                time.sleep(min(left, 0.05))
            else:
                self.pump(min(left, 0.2))
                if self.status is not None:  # drain what is left, briefly
                    while self.pump(0.05) and not self.closed:
                        pass
                    self.closed = True
        return True

    def kill(self, sig=signal.SIGKILL):
        try:
            os.kill(self.pid, sig)
        except ProcessLookupError:
            pass

    def exit_code(self):
        st = self.status
        if os.WIFSIGNALED(st):
            return 128 + os.WTERMSIG(st)
        return os.WEXITSTATUS(st)


def main(argv):
    timeout = float(os.environ.get('PTYDRIVE_TIMEOUT', '10'))
    cols, rows = 200, 24
    args = argv[1:]
    while args and args[0] != '--':
        opt = args.pop(0)
        if opt == '-t' and args:
            timeout = float(args.pop(0))
        elif opt == '--cols' and args:
            cols = int(args.pop(0))
        elif opt == '--rows' and args:
            rows = int(args.pop(0))
        else:
            sys.stderr.write(__doc__)
            return 125
    if not args or len(args) < 2:
        sys.stderr.write(__doc__)
        return 125
    script = sys.stdin.read().split('\n')
    child = Child(args[1:], cols, rows)

    def fail(msg):
        child.kill()
        child.wait(2)
        text = child.text()
        if len(text) > 8000:  # keep a failure report readable
            text = '[... %d characters left out ...]\n' % (len(text) - 8000) + text[-8000:]
        sys.stdout.write(text)
        sys.stdout.flush()
        sys.stderr.write('\nptydrive: %s\n' % msg)
        return 124

    for lineno, line in enumerate(script, 1):
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        action, _, arg = line.partition(' ')
        if action in ('expect', 'expect/re'):
            pattern = unescape(arg) if action == 'expect' else arg
            if not child.expect(pattern, action == 'expect/re', timeout):
                return fail('line %d: timed out after %gs waiting for %r' % (lineno, timeout, pattern))
        elif action == 'send':
            try:
                child.send(unescape(arg))
            except OSError as e:
                return fail('line %d: cannot send: %s' % (lineno, e))
        elif action == 'kill':
            name = arg.strip().upper()
            sig = int(name) if name.isdigit() else getattr(signal, name if name.startswith('SIG') else 'SIG' + name)
            child.kill(sig)
        elif action == 'sleep':
            end = time.monotonic() + float(arg)
            while time.monotonic() < end:
                if not child.pump(end - time.monotonic()) and child.closed:
                    time.sleep(max(0.0, end - time.monotonic()))
        elif action == 'eof':
            if not child.wait(timeout):
                return fail('line %d: timed out after %gs waiting for the command to end' % (lineno, timeout))
        else:
            child.kill()
            sys.stderr.write('ptydrive: line %d: unknown action %r\n' % (lineno, action))
            return 125
    if not child.wait(timeout):
        return fail('timed out after %gs waiting for the command to end' % timeout)
    sys.stdout.write(child.text())
    sys.stdout.flush()
    return child.exit_code()


if __name__ == '__main__':
    sys.exit(main(sys.argv))
