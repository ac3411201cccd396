// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Module loading for the irdma-vm guests, without kmod: a static binary
 * that calls finit_module() on the files it is given, in order, or
 * delete_module() on the names it is given, as rmmod does (O_NONBLOCK: a
 * module in use is an error, not a wait). Not part of the driver.
 *
 * Under TCG, with KASAN and kmemleak on, an exec of modprobe costs about
 * 0.45 s of the guest's CPU before the first module is read: the dynamic
 * loader maps libcrypto, liblzma and libzstd, and libkmod reads its
 * configuration and indexes. This binary has no libraries to map; the
 * guest's lib.sh resolves dependencies from modules.dep itself
 * (kmod() there) and hands over the files in load order.
 *
 * Usage: modload load FILE...
 *        modload unload NAME...
 * A module that is already loaded counts as loaded. Loading stops at the
 * first file that fails (what follows may need it); unloading goes on to
 * the next name, as rmmod does. The exit code is 0 when every step
 * succeeded, 1 when one failed (its error is on standard error), 2 for a
 * usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int load_file(const char *path)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "modload: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = syscall(SYS_finit_module, fd, "", 0);
	if (ret && errno == EEXIST)
		ret = 0;
	if (ret)
		fprintf(stderr, "modload: cannot load %s: %s\n", path,
			strerror(errno));
	close(fd);
	return ret;
}

static int unload_module(const char *name)
{
	if (!syscall(SYS_delete_module, name, O_NONBLOCK))
		return 0;
	fprintf(stderr, "modload: cannot unload %s: %s\n", name,
		strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	int (*step)(const char *arg);
	int i, ret = 0;

	if (argc < 3)
		goto usage;
	if (!strcmp(argv[1], "load"))
		step = load_file;
	else if (!strcmp(argv[1], "unload"))
		step = unload_module;
	else
		goto usage;
	for (i = 2; i < argc; i++) {
		if (!step(argv[i]))
			continue;
		ret = 1;
		if (step == load_file)
			break;
	}
	return ret;
usage:
	fprintf(stderr, "usage: modload load FILE... | modload unload NAME...\n");
	return 2;
}
