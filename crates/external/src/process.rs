//! One solver process: started in its own process group, its stdout read line by line (each
//! line capped) by a thread that hands the lines over a channel, so that the runner can wait
//! for the next line with a deadline; its stderr collected (capped) by another thread; its
//! whole group ended (SIGKILL) at every end of the process, polite or not.
//!
//! The runner writes to the solver's stdin through a Unix socket pair rather than a pipe: the
//! binary restores the default SIGPIPE disposition (so that `sudoku-lab ... | head` ends
//! quietly), and a write into a pipe whose reader has died would then kill the whole protocol.
//! `send` with `MSG_NOSIGNAL` on a socket fails with EPIPE instead, which is a failed run.
//!
//! Ends of a solver (Linux):
//! - the group: the solver leads its own process group; the group gets SIGKILL whenever the
//!   solver ends (killed, its own exit, the polite end of a pool), before the solver itself is
//!   reaped, so that the group's id cannot have been reused;
//! - the solver's own exit is seen while its output is awaited (it does not wait for an EOF of
//!   stdout that a child holding the pipe would delay until the wall limit);
//! - the runner's death: the solver gets SIGKILL from `PR_SET_PDEATHSIG` (set for the thread
//!   that started it; a pooled process found dead is replaced, see [`Process::is_alive`]);
//! - SIGINT, SIGTERM and SIGHUP of the runner: [`interrupt`] ends every live group.
//!
//! What remains: a descendant that left the group (`setsid`, `setpgid`) is not ended, nor the
//! group when the runner dies by SIGKILL (only the direct child gets its death signal).

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// What the stdout reader hands over: a line (without its newline), or why no more come.
#[derive(Debug)]
pub enum Line {
    Text(String),
    /// A line longer than the cap (bytes), or one that is not UTF-8.
    Oversized(usize),
    NotUtf8,
    /// stdout closed (the process ended or closed it), or the process exited and no line came
    /// for [`STDOUT_DRAIN`] (a descendant outside its group holds the pipe).
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

/// How often a wait for a line checks whether the process itself has exited.
const EXIT_POLL: Duration = Duration::from_millis(20);

/// After the process has exited and its group was ended: how long a silent stdout may stay
/// open (held by a descendant that left the group) before it counts as ended. Each line that
/// still arrives restarts it, so a slow reader thread on a loaded machine loses nothing.
pub const STDOUT_DRAIN: Duration = Duration::from_secs(5);

/// How long [`Process`]'s drop waits for a process to exit by itself after its input closed,
/// before its group is killed.
const POLITE_END: Duration = Duration::from_millis(500);

/// The process groups of live solvers (their leaders' pids), for [`interrupt`]. A pid leaves
/// the list, under its lock, before the process is reaped, so a listed id is never reused.
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Set by [`interrupt`] (under [`LIVE`]'s lock): no solver process starts after it.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// For the runner's SIGINT, SIGTERM and SIGHUP handling, just before it exits: every live solver's
/// process group is killed (SIGKILL), and no new one starts. Runs in flight then see their
/// solver die; [`interrupted`] tells them not to record that as the solver's failure.
pub fn interrupt() {
    let live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    INTERRUPTED.store(true, Ordering::SeqCst);
    for &pid in live.iter() {
        kill_group(pid);
    }
}

/// True once [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// SIGKILL to the process group led by `pid`.
fn kill_group(pid: u32) {
    #[cfg(unix)]
    // SAFETY: kill(2) on a process group id; no memory is involved. The group is led by a
    // child of ours that is not reaped yet (callers ensure it), so the id is not reused.
    unsafe {
        libc::kill(-(pid as libc::pid_t), libc::SIGKILL);
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// The capped stderr of a process since it was last taken, and the pipe it comes from.
#[derive(Debug, Default)]
struct Capped {
    bytes: Vec<u8>,
    dropped: u64,
    /// Most bytes kept between two takes.
    max: usize,
    /// The read end (non-blocking); None once it reached EOF (every writer has exited).
    pipe: Option<std::process::ChildStderr>,
    /// The process is gone: the reader thread stops even if a descendant holds the pipe.
    abandoned: bool,
}

impl Capped {
    /// Read everything the pipe holds now (all reads happen under the lock, so the order of
    /// the bytes is kept and a take sees everything written before it).
    fn drain(&mut self) {
        let mut chunk = [0u8; 8192];
        while let Some(pipe) = self.pipe.as_mut() {
            match pipe.read(&mut chunk) {
                Ok(0) => self.pipe = None,
                Ok(n) => {
                    let room = self.max.saturating_sub(self.bytes.len()).min(n);
                    self.bytes.extend_from_slice(&chunk[..room]);
                    self.dropped += (n - room) as u64;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                Err(_) => self.pipe = None,
            }
        }
    }
}

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
    /// Once the process has exited (seen while waiting for a line): until when a silent
    /// stdout may stay open.
    drain_until: Option<Instant>,
    /// The exit status, once reaped (its group was ended first).
    status: Option<std::process::ExitStatus>,
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
        let mut child = {
            // Registered under the lock, so that an interrupt either precedes the start (and
            // none happens) or sees the process.
            let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
            if interrupted() {
                return Err(std::io::Error::other("the runner was interrupted"));
            }
            let child = cmd.spawn()?;
            live.push(child.id());
            child
        };
        let stdin = match ours {
            Some(s) => s,
            None => take_child_stdin(&mut child)?,
        };
        let out = child.stdout.take().expect("stdout is piped");
        let err = child.stderr.take().expect("stderr is piped");
        set_nonblocking(&err)?;
        // Bounded: a solver that writes faster than the runner reads is held back by its
        // pipe, not buffered without limit in the runner's memory.
        let (tx, lines) = mpsc::sync_channel(LINES_IN_FLIGHT);
        let cap = launch.max_line;
        std::thread::spawn(move || read_lines(out, cap, &tx));
        let stderr = Arc::new(Mutex::new(Capped {
            max: launch.max_stderr,
            pipe: Some(err),
            ..Capped::default()
        }));
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || collect_stderr(&sink));
        Ok(Process {
            child,
            stdin: Some(stdin),
            lines,
            stderr,
            ended: false,
            drain_until: None,
            status: None,
        })
    }

    /// The process's id (the id of its process group too).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The CPU time its process group has used so far: user and system time of every live
    /// member, plus that of the members' children they have waited for (Linux `/proc`, read
    /// at the call; None elsewhere or when the group cannot be read). A member that left the
    /// group (`setsid`) is not counted.
    pub fn group_cpu(&self) -> Option<std::time::Duration> {
        group_cpu(self.child.id())
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

    /// The next stdout line, waiting until `deadline` at most. The process's own exit is
    /// checked meanwhile: when it has exited, its group is ended (a child that still holds
    /// stdout cannot keep the run waiting until the deadline), the lines it wrote are still
    /// read, and a stdout that stays open and silent for [`STDOUT_DRAIN`] then counts as EOF.
    pub fn next_line(&mut self, deadline: Instant) -> Result<Line, Wait> {
        loop {
            if self.ended {
                return Ok(Line::Eof);
            }
            let drain = self.drain_until.filter(|d| *d < deadline);
            let until = drain.unwrap_or(deadline);
            let now = Instant::now();
            if now >= until {
                if drain.is_some() {
                    self.ended = true;
                    return Ok(Line::Eof);
                }
                return Err(Wait::Timeout);
            }
            match self.lines.recv_timeout((until - now).min(EXIT_POLL)) {
                Ok(line) => {
                    self.ended = !matches!(line, Line::Text(_));
                    if self.drain_until.is_some() {
                        self.drain_until = Some(Instant::now() + STDOUT_DRAIN);
                    }
                    return Ok(line);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if self.drain_until.is_none() && self.has_exited() {
                        self.end();
                        self.drain_until = Some(Instant::now() + STDOUT_DRAIN);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => self.ended = true,
            }
        }
    }

    /// The exit status once the process has ended (its group is then ended too), waiting until
    /// `deadline` at most (None: still running).
    pub fn wait_until(&mut self, deadline: Instant) -> Option<std::process::ExitStatus> {
        loop {
            if self.status.is_some() || self.has_exited() {
                return self.end();
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Whether the process itself has exited (without reaping it, so that its pid, its
    /// group's id, stays ours until [`Process::end`]).
    fn has_exited(&mut self) -> bool {
        if self.status.is_some() {
            return true;
        }
        #[cfg(unix)]
        {
            // SAFETY: waitid(2) with WNOWAIT writes into a zeroed siginfo_t we own; it
            // neither reaps nor touches other memory.
            unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
                let r = libc::waitid(libc::P_PID, self.child.id(), &mut info, flags);
                r != 0 || info.si_pid() != 0
            }
        }
        #[cfg(not(unix))]
        {
            matches!(self.child.try_wait(), Ok(Some(_)))
        }
    }

    /// Whether the process is still running (a pooled process may have been ended meanwhile,
    /// e.g. by its death signal when the thread that started it exited).
    pub fn is_alive(&mut self) -> bool {
        !self.has_exited()
    }

    /// End the process: its group killed, then the process reaped (the only place that reaps,
    /// so the group's id is never a reused one). Returns its exit status.
    fn end(&mut self) -> Option<std::process::ExitStatus> {
        if self.status.is_some() {
            return self.status;
        }
        self.close_input();
        {
            let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
            let pid = self.child.id();
            kill_group(pid);
            live.retain(|p| *p != pid);
        }
        let _ = self.child.kill();
        self.status = self.child.wait().ok();
        self.status
    }

    /// Kill the process and its group, and reap it.
    pub fn kill(&mut self) {
        self.end();
    }

    /// The stderr written since the last call (at most the cap), with a note of what was
    /// dropped beyond it. Everything the pipe holds is read first: what the solver wrote to
    /// stderr before its last stdout line (or before it ended) is in this take, not the next.
    pub fn take_stderr(&self) -> Vec<u8> {
        let mut c = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        c.drain();
        let mut bytes = std::mem::take(&mut c.bytes);
        if c.dropped > 0 {
            let note = format!("\n[{} more bytes of stderr dropped]\n", c.dropped);
            bytes.extend_from_slice(note.as_bytes());
            c.dropped = 0;
        }
        bytes
    }

    /// The last `lines` lines of the stderr written since the last take, at most 600
    /// characters, their control characters (newlines too) escaped, so that it fits in a
    /// one-line error message; empty when there is none.
    pub fn stderr_tail(&self, lines: usize) -> String {
        let bytes = self.take_stderr();
        let text = String::from_utf8_lossy(&bytes);
        let all: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = all[all.len().saturating_sub(lines)..].join("\n");
        // At most the last 600 characters.
        let from = tail.char_indices().rev().nth(599).map_or(0, |(i, _)| i);
        let escape = |c: char| match c.is_control() {
            true => c.escape_debug().to_string(),
            false => c.to_string(),
        };
        tail[from..].chars().map(escape).collect()
    }
}

impl Drop for Process {
    /// End the process: EOF first (a well-behaved solver exits), then its group killed after a
    /// short grace, so that no process of it outlives the protocol.
    fn drop(&mut self) {
        self.close_input();
        if self.wait_until(Instant::now() + POLITE_END).is_none() {
            self.end();
        }
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .abandoned = true;
    }
}

/// Give the child one end of a socket pair as stdin; ours is the other end (Unix). The child
/// leads its own process group, starts with no signal blocked (the runner blocks the signals
/// it waits for in every thread, and a mask is inherited across exec: a solver's own SIGTERM
/// handler, or its children's default one, would never run), and (Linux) dies with the thread
/// that started it.
#[cfg(unix)]
fn attach_stdin(cmd: &mut Command) -> std::io::Result<Option<Input>> {
    use std::os::unix::process::CommandExt;
    let (ours, theirs) = std::os::unix::net::UnixStream::pair()?;
    cmd.stdin(Stdio::from(std::os::fd::OwnedFd::from(theirs)));
    cmd.process_group(0);
    // SAFETY: sigemptyset, sigprocmask and prctl(2) are async-signal-safe and touch no memory
    // of the parent (the set is on the child's stack): they are all that runs between fork and
    // exec here.
    unsafe {
        cmd.pre_exec(|| {
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            if libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            #[cfg(target_os = "linux")]
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
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

/// The stderr reader: drains the pipe into the capped buffer whenever it has data (the runner
/// drains it too, under the same lock, when it takes the stderr), until EOF or until the
/// process is gone.
fn collect_stderr(sink: &Mutex<Capped>) {
    loop {
        let fd = {
            let mut c = sink.lock().unwrap_or_else(|e| e.into_inner());
            c.drain();
            match (&c.pipe, c.abandoned) {
                (Some(p), false) => raw(p),
                _ => return,
            }
        };
        wait_readable(fd);
    }
}

#[cfg(unix)]
fn raw(p: &std::process::ChildStderr) -> i32 {
    use std::os::fd::AsRawFd;
    p.as_raw_fd()
}

#[cfg(not(unix))]
fn raw(_: &std::process::ChildStderr) -> i32 {
    0
}

/// Wait until `fd` is readable or closed, or 100 ms have passed.
#[cfg(unix)]
fn wait_readable(fd: i32) {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: poll(2) on one pollfd we own. The descriptor stays open while the sink holds
    // the pipe; if the runner's drain closed it meanwhile, poll reports it or times out and
    // the next round sees the pipe gone.
    unsafe {
        libc::poll(&mut p, 1, 100);
    }
}

#[cfg(not(unix))]
fn wait_readable(_: i32) {
    std::thread::sleep(Duration::from_millis(10));
}

/// Make our read end of the stderr pipe non-blocking (it is ours alone: the child's write end
/// is another open file).
#[cfg(unix)]
fn set_nonblocking(p: &std::process::ChildStderr) -> std::io::Result<()> {
    let fd = raw(p);
    // SAFETY: fcntl(2) on a descriptor we own; no memory is involved.
    let r = unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK)
    };
    if r < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(not(unix))]
fn set_nonblocking(_: &std::process::ChildStderr) -> std::io::Result<()> {
    Ok(())
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
            .wait_until(Instant::now() + Duration::from_secs(120))
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
            p.next_line(Instant::now() + Duration::from_secs(120)),
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
        let soon = || Instant::now() + Duration::from_secs(120);
        assert!(matches!(p.next_line(soon()), Ok(Line::Text(t)) if t == "hi"));
        assert!(matches!(p.next_line(soon()), Ok(Line::Oversized(16))));
        let mut p = run("sleep 100 & sleep 100");
        let begun = Instant::now();
        let waited = p.next_line(Instant::now() + Duration::from_millis(200));
        assert_eq!(waited.err(), Some(Wait::Timeout));
        p.kill();
        // The kill does not wait for the sleeps (a generous bound: a loaded machine is slow).
        assert!(begun.elapsed() < Duration::from_secs(60));
    }

    /// What a process wrote to stderr just before it ended is kept: the reader thread may not
    /// have read it when the process is reaped, so the final take waits for the stream's EOF.
    /// Repeated because the race it guards against is a matter of scheduling.
    #[test]
    fn the_last_stderr_of_a_process_that_ended_is_kept() {
        for _ in 0..20 {
            let mut p = ended("echo last words >&2; kill -ABRT $$");
            p.kill();
            let err = String::from_utf8(p.take_stderr()).unwrap();
            assert!(err.contains("last words"), "{err:?}");
        }
    }
}

/// The CPU time of process group `pgid`: the sum over `/proc/*/stat` of the members' `utime`,
/// `stime`, `cutime` and `cstime` (fields 14 to 17, in clock ticks). None where `/proc` is not
/// there (not Linux) or the group has no member left.
pub fn group_cpu(pgid: u32) -> Option<std::time::Duration> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf reads a constant of the system.
        let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if hz <= 0 {
            return None;
        }
        let mut ticks = 0u64;
        let mut members = 0usize;
        for e in std::fs::read_dir("/proc").ok()?.flatten() {
            let name = e.file_name();
            let Some(pid) = name
                .to_str()
                .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue; // ended meanwhile
            };
            if let Some((group, t)) = stat_ticks(&stat) {
                if group == pgid {
                    ticks += t;
                    members += 1;
                }
            }
        }
        (members > 0).then(|| std::time::Duration::from_secs_f64(ticks as f64 / hz as f64))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pgid;
        None
    }
}

/// A `/proc/PID/stat` line's process group (field 5) and CPU ticks (fields 14 to 17). The
/// command name (field 2) is in parentheses and may hold spaces: fields are counted after
/// its last `)`.
fn stat_ticks(stat: &str) -> Option<(u32, u64)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    // rest starts with field 3 (state).
    let f: Vec<&str> = rest.split_whitespace().take(15).collect();
    let group = f.get(2)?.parse().ok()?;
    let ticks = f
        .get(11..15)?
        .iter()
        .map(|x| x.parse::<u64>().ok())
        .sum::<Option<u64>>()?;
    Some((group, ticks))
}

#[cfg(test)]
mod cpu_tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_its_group_and_ticks() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
        // utime stime cutime cstime ...
        let table = [
            (
                "42 (py thon) S 1 42 42 0 -1 0 0 0 0 0 7 3 2 1 20 0",
                Some((42, 13)),
            ),
            (
                "7 (a) b) R 1 9 9 0 -1 0 0 0 0 0 100 0 0 0 20 0",
                Some((9, 100)),
            ),
            ("7 (x) R 1", None),
            ("garbage", None),
        ];
        for (line, want) in table {
            assert_eq!(stat_ticks(line), want, "{line}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_group_of_a_busy_child_has_used_cpu() {
        let mut cmd = Command::new("sh");
        cmd.args([
            "-c",
            "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; sleep 5",
        ]);
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().unwrap();
        let pgid = child.id();
        let mut used = std::time::Duration::ZERO;
        for _ in 0..200 {
            used = group_cpu(pgid).unwrap_or_default();
            if used > std::time::Duration::ZERO {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
        assert!(
            used > std::time::Duration::ZERO,
            "no CPU seen for the busy group"
        );
        assert_eq!(group_cpu(u32::MAX - 1), None);
    }
}
