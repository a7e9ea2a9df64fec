#ifndef MEDIASHELL_SHIM_H
#define MEDIASHELL_SHIM_H
#include <pthread.h>
/// Installs a SIGINT handler (sigaction, no SA_RESTART) that sets a flag and writes a byte to a pipe.
/// Idempotent. Returns the read end of that pipe, or -1 on failure (errno set).
int msh_install_interrupt_handler(void);
/// 1 when SIGINT arrived since the last clear.
int msh_interrupt_pending(void);
/// Clears the SIGINT flag and drains the pipe.
void msh_clear_interrupt(void);
/// Makes SIGINT and SIGTERM (unblocked first) write a byte to a pipe; returns its read end or -1.
/// For long-running servers that only wait to be stopped.
int msh_install_termination_handler(void);
/// For the shell: SIGTERM and SIGHUP set the SIGINT flag for good (clearing it no longer does) and remember
/// the signal; a second one exits at once with 128 + its number. Install after the interrupt handler.
/// Returns 0, or -1 on failure (errno set).
int msh_install_shell_termination_handlers(void);
/// The SIGTERM or SIGHUP that arrived, or 0.
int msh_termination_signal_received(void);
/// Installs a SIGWINCH handler (sigaction, no SA_RESTART) that only sets a flag. Returns 0, or -1 on failure.
int msh_install_resize_handler(void);
/// 1 when SIGWINCH arrived since the last call; clears the flag.
int msh_take_resize(void);
/// Unblocks SIGINT, SIGWINCH and the terminal signals (SIGTSTP, SIGCONT, SIGTTIN, SIGTTOU, SIGQUIT, SIGHUP,
/// SIGTERM) in the calling thread, which Swift concurrency may have blocked. Returns 0, or an errno value.
int msh_unblock_terminal_signals(void);
/// syncfs(2): flushes the filesystem holding `fd`. A GNU extension Swift's Glibc module does not export.
int msh_syncfs(int fd);
/// renameat2(2) with RENAME_NOREPLACE: renames `from` to `to` unless something is at `to` (-1, EEXIST), in
/// one step. -1 with EINVAL (or ENOSYS) where the filesystem or kernel cannot refuse that way.
int msh_rename_noreplace(const char *from, const char *to);
/// fgetxattr(2), fsetxattr(2) (flags 0: create or replace), fremovexattr(2): a file's extended attributes,
/// from <sys/xattr.h>, which the Swift Glibc module does not export.
long msh_fgetxattr(int fd, const char *name, void *value, unsigned long size);
int msh_fsetxattr(int fd, const char *name, const void *value, unsigned long size);
int msh_fremovexattr(int fd, const char *name);
/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor from `lowest`
/// up. `actions` is a posix_spawn_file_actions_t *. Returns 0, or an errno value (ENOSYS without it).
int msh_spawn_close_from(void *actions, int lowest);
/// prctl(PR_SET_TIMERSLACK, 1): the calling thread's timed sleeps end within a nanosecond of their moment
/// rather than Linux's default 50 microseconds late (a paced link sleeps several times per request).
/// Inherited by threads it creates afterwards. Returns 0, or -1 (errno set).
int msh_set_minimal_timer_slack(void);
/// The calling thread's timer slack in nanoseconds (prctl PR_GET_TIMERSLACK), or -1.
long msh_timer_slack(void);
/// pidfd_open(2), which glibc 2.36 wraps only in a header Debian 12 lacks: a descriptor for the process
/// (or, with PIDFD_THREAD, the thread) `pid` that poll(2) reports readable once it has ended. -1 and errno
/// on failure (ESRCH: it is gone; EINVAL: a flag this kernel does not know).
int msh_pidfd_open(int pid, unsigned int flags);
/// pthread_setname_np, which Swift's Glibc module does not export: names `thread` (at most 15 bytes) from
/// any thread of the process, as top -H, debuggers and /proc/self/task/*/comm show it. 0, or an errno value.
int msh_name_thread(pthread_t thread, const char *name);
#endif
