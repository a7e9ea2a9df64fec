#define _GNU_SOURCE
#include <sys/xattr.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "CMediaShellShim.h"

int msh_syncfs(int fd) { return syncfs(fd); }

long msh_fgetxattr(int fd, const char *name, void *value, unsigned long size) {
    return fgetxattr(fd, name, value, size);
}

int msh_fsetxattr(int fd, const char *name, const void *value, unsigned long size) {
    return fsetxattr(fd, name, value, size, 0);
}

int msh_fremovexattr(int fd, const char *name) { return fremovexattr(fd, name); }

int msh_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}
