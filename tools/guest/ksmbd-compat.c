// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * LD_PRELOAD shim for Debian 12's ksmbd.mountd (ksmbd-tools 3.4.7), used
 * by tools/tests/54-smbdirect-iwarp.sh only; the harness builds it into the
 * run directory. Not part of the driver.
 *
 * The ksmbd of 6.1.192 (Debian 12's kernel source) checks the share config
 * response's payload_sz against the size of the netlink attribute that
 * carries it (ipc_validate_msg() in fs/smb/server/transport_ipc.c, from
 * 6.1.y's stable updates). ksmbd-tools 3.4.7 sizes the message for the
 * share's path but leaves payload_sz at 0, so the kernel drops every share
 * config, and every tree connect fails with STATUS_BAD_NETWORK_NAME, IPC$
 * and file shares alike, over TCP as over SMB Direct. Later ksmbd-tools
 * releases fill the field in. This fills it in the same way, as the size of
 * what follows the fixed part of the response, when it is 0; nothing else
 * the daemon sends is touched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct nl_msg;

/* fs/smb/server/ksmbd_netlink.h */
#define KSMBD_EVENT_SHARE_CONFIG_RESPONSE 7

struct share_config_response {
	uint32_t handle;
	uint32_t flags;
	uint16_t masks_and_forces[6];
	int8_t share_name[64];
	uint32_t reserved[111];
	uint32_t payload_sz;
	uint32_t veto_list_sz;
};

_Static_assert(sizeof(struct share_config_response) == 536,
	       "the share config response of 6.1's ksmbd is 536 bytes");

int nla_put(struct nl_msg *msg, int type, int len, const void *data);

int nla_put(struct nl_msg *msg, int type, int len, const void *data)
{
	static int (*next)(struct nl_msg *, int, int, const void *);
	const size_t fixed = sizeof(struct share_config_response);
	const size_t at = offsetof(struct share_config_response, payload_sz);
	uint32_t payload_sz;
	char *copy;
	int ret;

	if (!next)
		next = (int (*)(struct nl_msg *, int, int, const void *))
			dlsym(RTLD_NEXT, "nla_put");
	if (!next)
		abort();
	if (type != KSMBD_EVENT_SHARE_CONFIG_RESPONSE || len <= 0 ||
	    (size_t)len <= fixed)
		return next(msg, type, len, data);
	memcpy(&payload_sz, (const char *)data + at, sizeof(payload_sz));
	if (payload_sz)
		return next(msg, type, len, data);

	copy = malloc(len);
	if (!copy)
		return next(msg, type, len, data);
	memcpy(copy, data, len);
	payload_sz = len - fixed;
	memcpy(copy + at, &payload_sz, sizeof(payload_sz));
	ret = next(msg, type, len, copy);
	free(copy);
	return ret;
}
