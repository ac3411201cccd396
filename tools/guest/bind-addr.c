// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * LD_PRELOAD shim for perftest's ib_*_bw servers, used by the 7N-upstream
 * scripts only; the harness builds it into the run directory. Not part of
 * the driver.
 *
 * A perftest server (4.5) binds its rdma_cm listener to the wildcard
 * address, and a wildcard listen reaches every RDMA device with rdma_cm's
 * global lock held (cma_listen_on_all()). Linux 6.1's irdma then takes
 * the RTNL in its create_listen (irdma_add_mqh_4()), while rdma_cm's
 * netdev notifier takes that lock under the RTNL: lockdep reports the
 * inversion, which is upstream's, not the model's. With IRDMA_BIND_ADDR
 * set to an IPv4 address, a bind to the IPv4 wildcard binds to that
 * address instead, so the listen goes to that address's device alone, as
 * rping -a does; every other bind is passed on untouched.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct rdma_cm_id;

int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr);

int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
{
	static int (*next)(struct rdma_cm_id *, struct sockaddr *);
	const char *want = getenv("IRDMA_BIND_ADDR");
	struct sockaddr_in sin;

	if (!next)
		next = (int (*)(struct rdma_cm_id *, struct sockaddr *))
			dlsym(RTLD_NEXT, "rdma_bind_addr");
	if (!next)
		abort();
	if (!want || !addr || addr->sa_family != AF_INET)
		return next(id, addr);
	memcpy(&sin, addr, sizeof(sin));
	if (sin.sin_addr.s_addr != htonl(INADDR_ANY) ||
	    inet_pton(AF_INET, want, &sin.sin_addr) != 1)
		return next(id, addr);
	return next(id, (struct sockaddr *)&sin);
}
