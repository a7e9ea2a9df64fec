#ifndef MEDIASHELL_SHIM_H
#define MEDIASHELL_SHIM_H
/// Installs a SIGINT handler (sigaction, no SA_RESTART) that sets a flag and writes a byte to a pipe.
/// Returns the read end of that pipe, or -1 on failure.
int msh_install_interrupt_handler(void);
/// 1 when SIGINT arrived since the last clear.
int msh_interrupt_pending(void);
void msh_clear_interrupt(void);
/// Makes SIGINT and SIGTERM (unblocked first) write a byte to a pipe; returns its read end or -1.
/// For long-running servers that only wait to be stopped.
int msh_install_termination_handler(void);
#endif
