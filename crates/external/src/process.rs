//! One solver process: started in its own process group, its stdout read line by line (each
//! line capped) by a thread that hands the lines over a channel, so that the runner can wait
//! for the next line with a deadline; its stderr collected (capped) by another thread; killed
//! with its whole group when it misbehaves.
//!
//! The runner writes to the solver's stdin through a Unix socket pair rather than a pipe: the
//! binary restores the default SIGPIPE disposition (so that `sudoku-lab ... | head` ends
//! quietly), and a write into a pipe whose reader has died would then kill the whole protocol.
//! `send` with `MSG_NOSIGNAL` on a socket fails with EPIPE instead, which is a failed run.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// What the stdout reader hands over: a line (without its newline), or why no more come.
#[derive(Debug)]
pub enum Line {
    Text(String),
    /// A line longer than the cap (bytes), or one that is not UTF-8.
    Oversized(usize),
    NotUtf8,
    /// stdout closed (the process ended or closed it).
    Eof,
}

/// Why no line came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// The deadline passed.
    Timeout,
}

/// Lines read ahead of the runner at most.
const LINES_IN_FLIGHT: usize = 64;

/// The capped stderr of a process since it was last taken.
#[derive(Debug, Default)]
struct Capped {
    bytes: Vec<u8>,
    dropped: u64,
    /// The stream reached EOF (every writer has exited): nothing more will arrive.
    closed: bool,
}

/// How long [`Process::take_final_stderr`] waits for the stderr reader to drain a pipe whose
/// writers have exited (a grandchild that left the process group could keep it open).
const STDERR_DRAIN: Duration = Duration::from_millis(500);

/// How to start a solver process.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The program, resolved (a path, or a name the system looks up in PATH).
    pub program: std::path::PathBuf,
    pub args: Vec<String>,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// The working directory (the spec's folder).
    pub dir: std::path::PathBuf,
    /// Longest stdout line accepted, in bytes.
    pub max_line: usize,
    /// Most stderr bytes kept between two [`Process::take_stderr`] calls.
    pub max_stderr: usize,
}

/// A running solver process.
pub struct Process {
    child: Child,
    stdin: Option<Input>,
    lines: mpsc::Receiver<Line>,
    stderr: Arc<Mutex<Capped>>,
    /// Set once stdout has ended, so that later waits return at once.
    ended: bool,
}

#[cfg(unix)]
type Input = std::os::unix::net::UnixStream;
#[cfg(not(unix))]
type Input = std::process::ChildStdin;

impl Process {
    /// Start the process; Err is the system's reason (e.g. no such file, permission denied).
    pub fn start(launch: &Launch) -> std::io::Result<Process> {
        let mut cmd = Command::new(&launch.program);
        cmd.args(&launch.args)
            .current_dir(&launch.dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in &launch.env {
            cmd.env(k, v);
        }
        let ours = attach_stdin(&mut cmd)?;
        let mut child = cmd.spawn()?;
        let stdin = match ours {
            Some(s) => s,
            None => take_child_stdin(&mut child)?,
        };
        let out = child.stdout.take().expect("stdout is piped");
        let err = child.stderr.take().expect("stderr is piped");
        // Bounded: a solver that writes faster than the runner reads is held back by its
        // pipe, not buffered without limit in the runner's memory.
        let (tx, lines) = mpsc::sync_channel(LINES_IN_FLIGHT);
        let cap = launch.max_line;
        std::thread::spawn(move || read_lines(out, cap, &tx));
        let stderr = Arc::new(Mutex::new(Capped::default()));
        let sink = Arc::clone(&stderr);
        let max = launch.max_stderr;
        std::thread::spawn(move || collect_stderr(err, max, &sink));
        Ok(Process {
            child,
            stdin: Some(stdin),
            lines,
            stderr,
            ended: false,
        })
    }

    /// Send one line (a newline is appended). Err when the process no longer reads.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        };
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        write_all(stdin, &bytes)
    }

    /// Close the process's stdin (end of input: a solver ends when it reads EOF).
    pub fn close_input(&mut self) {
        if let Some(s) = self.stdin.take() {
            #[cfg(unix)]
            let _ = s.shutdown(std::net::Shutdown::Both);
            drop(s);
        }
    }

    /// The next stdout line, waiting until `deadline` at most.
    pub fn next_line(&mut self, deadline: Instant) -> Result<Line, Wait> {
        if self.ended {
            return Ok(Line::Eof);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                self.ended = !matches!(line, Line::Text(_));
                Ok(line)
            }
            Err(mpsc::RecvTimeoutError::Timeout) => Err(Wait::Timeout),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                self.ended = true;
                Ok(Line::Eof)
            }
        }
    }

    /// The exit status once the process has ended, waiting until `deadline` at most (None:
    /// still running).
    pub fn wait_until(&mut self, deadline: Instant) -> Option<std::process::ExitStatus> {
        loop {
            if let Ok(Some(s)) = self.child.try_wait() {
                return Some(s);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Kill the process and its group, and reap it.
    pub fn kill(&mut self) {
        self.close_input();
        #[cfg(unix)]
        // SAFETY: kill(2) on the process group the child leads (it was started with
        // process_group(0), so its pid is the group's id); no memory is involved.
        unsafe {
            libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The stderr written since the last call (at most the cap), with a note of what was
    /// dropped beyond it.
    pub fn take_stderr(&self) -> Vec<u8> {
        let mut c = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let mut bytes = std::mem::take(&mut c.bytes);
        if c.dropped > 0 {
            let note = format!("\n[{} more bytes of stderr dropped]\n", c.dropped);
            bytes.extend_from_slice(note.as_bytes());
            c.dropped = 0;
        }
        bytes
    }

    /// The stderr of a process that has ended (after [`Process::kill`] or its own exit): waits
    /// up to [`STDERR_DRAIN`] for the reader thread to reach EOF first, so that what the
    /// solver wrote just before it died is in the log (the reader runs on another thread and
    /// may not have read it yet when the process is reaped).
    pub fn take_final_stderr(&mut self) -> Vec<u8> {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            let until = Instant::now() + STDERR_DRAIN;
            while !self.stderr.lock().map_or(true, |c| c.closed) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        self.take_stderr()
    }
}

impl Drop for Process {
    /// End the process: EOF first (a well-behaved solver exits), then kill after a short
    /// grace, so that no process outlives the protocol.
    fn drop(&mut self) {
        self.close_input();
        if self
            .wait_until(Instant::now() + Duration::from_millis(500))
            .is_none()
        {
            self.kill();
        }
    }
}

/// Give the child one end of a socket pair as stdin; ours is the other end (Unix).
#[cfg(unix)]
fn attach_stdin(cmd: &mut Command) -> std::io::Result<Option<Input>> {
    use std::os::unix::process::CommandExt;
    let (ours, theirs) = std::os::unix::net::UnixStream::pair()?;
    cmd.stdin(Stdio::from(std::os::fd::OwnedFd::from(theirs)));
    cmd.process_group(0);
    Ok(Some(ours))
}

#[cfg(not(unix))]
fn attach_stdin(cmd: &mut Command) -> std::io::Result<Option<Input>> {
    cmd.stdin(Stdio::piped());
    Ok(None)
}

#[cfg(unix)]
fn take_child_stdin(_: &mut Child) -> std::io::Result<Input> {
    Err(std::io::ErrorKind::Other.into())
}

#[cfg(not(unix))]
fn take_child_stdin(child: &mut Child) -> std::io::Result<Input> {
    child
        .stdin
        .take()
        .ok_or_else(|| std::io::ErrorKind::BrokenPipe.into())
}

/// Write all of `bytes`, never raising SIGPIPE (Unix: `send` with `MSG_NOSIGNAL`).
#[cfg(unix)]
fn write_all(s: &mut Input, mut bytes: &[u8]) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    while !bytes.is_empty() {
        // SAFETY: send(2) reads `bytes.len()` bytes from a live slice on a socket we own.
        let n = unsafe {
            libc::send(
                s.as_raw_fd(),
                bytes.as_ptr().cast(),
                bytes.len(),
                libc::MSG_NOSIGNAL,
            )
        };
        if n < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        bytes = &bytes[n as usize..];
    }
    Ok(())
}

#[cfg(not(unix))]
fn write_all(s: &mut Input, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    s.write_all(bytes).and_then(|_| s.flush())
}

/// The stdout reader: one message per line, each at most `cap` bytes; ends at EOF or at the
/// first line it refuses (the process is then killed by the runner).
fn read_lines(out: impl Read, cap: usize, tx: &mpsc::SyncSender<Line>) {
    let mut r = BufReader::with_capacity(64 << 10, out);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let limit = cap as u64 + 1;
        match (&mut r).take(limit).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                let _ = tx.send(Line::Eof);
                return;
            }
            Ok(_) => {}
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
        } else if buf.len() > cap {
            let _ = tx.send(Line::Oversized(cap));
            return;
        }
        let line = match std::str::from_utf8(&buf) {
            Ok(s) => Line::Text(s.trim_end_matches('\r').to_string()),
            Err(_) => {
                let _ = tx.send(Line::NotUtf8);
                return;
            }
        };
        if tx.send(line).is_err() {
            return;
        }
    }
}

/// The stderr reader: keeps at most `max` bytes until they are taken, counts the rest.
fn collect_stderr(mut err: impl Read, max: usize, sink: &Mutex<Capped>) {
    let mut chunk = [0u8; 8192];
    loop {
        let n = match err.read(&mut chunk) {
            Ok(0) | Err(_) => {
                sink.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
                return;
            }
            Ok(n) => n,
        };
        let mut c = sink.lock().unwrap_or_else(|e| e.into_inner());
        let room = max.saturating_sub(c.bytes.len()).min(n);
        c.bytes.extend_from_slice(&chunk[..room]);
        c.dropped += (n - room) as u64;
    }
}

/// True when `path` is a file this user may execute (Unix: any execute bit).
pub fn is_executable(path: &Path) -> bool {
    let Ok(m) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        m.is_file() && m.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        m.is_file()
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// `sh -c script`, started and waited for until it has ended.
    fn ended(script: &str) -> Process {
        let launch = Launch {
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            env: Vec::new(),
            dir: ".".into(),
            max_line: 1024,
            max_stderr: 1024,
        };
        let mut p = Process::start(&launch).unwrap();
        assert!(p
            .wait_until(Instant::now() + Duration::from_secs(10))
            .is_some());
        p
    }

    /// A write to a process that has exited fails with an error instead of raising SIGPIPE,
    /// even with SIGPIPE's default disposition (which sudoku-lab's binary restores, and under
    /// which a write to a closed pipe would end the whole runner). With flags 0 instead of
    /// MSG_NOSIGNAL this test binary dies of SIGPIPE.
    #[test]
    fn writing_to_a_dead_process_is_an_error_not_a_signal() {
        // SAFETY: setting a signal disposition; this test binary writes to no other pipe.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
        let mut p = ended("exit 0");
        let sent = (0..100)
            .map(|_| p.send(&"x".repeat(4096)))
            .find(Result::is_err);
        assert!(sent.is_some(), "every write to a dead process succeeded");
        assert!(matches!(
            p.next_line(Instant::now() + Duration::from_secs(10)),
            Ok(Line::Eof)
        ));
    }

    /// A line over the cap ends the reading with `Oversized`; a process that writes nothing
    /// leaves the reader waiting until the deadline, and is then killed with its group.
    #[test]
    fn oversized_lines_and_silence_are_reported() {
        let run = |script: &str| {
            let launch = Launch {
                program: "sh".into(),
                args: vec!["-c".into(), script.into()],
                env: vec![("GREETING".into(), "hi".into())],
                dir: ".".into(),
                max_line: 16,
                max_stderr: 8,
            };
            Process::start(&launch).unwrap()
        };
        let mut p = run("echo \"$GREETING\"; echo 12345678901234567890; echo more >&2");
        let soon = || Instant::now() + Duration::from_secs(10);
        assert!(matches!(p.next_line(soon()), Ok(Line::Text(t)) if t == "hi"));
        assert!(matches!(p.next_line(soon()), Ok(Line::Oversized(16))));
        let mut p = run("sleep 100 & sleep 100");
        let begun = Instant::now();
        let waited = p.next_line(Instant::now() + Duration::from_millis(200));
        assert_eq!(waited.err(), Some(Wait::Timeout));
        p.kill();
        assert!(begun.elapsed() < Duration::from_secs(5));
    }

    /// What a process wrote to stderr just before it ended is kept: the reader thread may not
    /// have read it when the process is reaped, so the final take waits for the stream's EOF.
    /// Repeated because the race it guards against is a matter of scheduling.
    #[test]
    fn the_last_stderr_of_a_process_that_ended_is_kept() {
        for _ in 0..20 {
            let mut p = ended("echo last words >&2; kill -ABRT $$");
            p.kill();
            let err = String::from_utf8(p.take_final_stderr()).unwrap();
            assert!(err.contains("last words"), "{err:?}");
        }
    }
}
