/*
 * Preloaded into vload under valgrind by bench/instructions.sh.
 *
 * libdispatch's main thread waits in sigsuspend() with a signal mask that lives in read-only
 * memory; valgrind (3.19 and 3.24 alike) edits the mask it is given in place while it handles
 * the call, and dies of the write ("VALGRIND INTERNAL ERROR ... sigdelset"). This sigsuspend
 * hands the kernel a writable copy of the mask, nothing else.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
