/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * irdma: host memory cache (HMC) layout. The engine keeps its object
 * contexts in host memory, addressed as one function-private memory (FPM)
 * space cut into 2 MiB segments (SDs); a paged SD points at a page of 512
 * page descriptors (PDs), each naming one 4 KiB page.
 */
#ifndef IRDMA_HMC_H
#define IRDMA_HMC_H

#include <linux/types.h>
#include "ctrl.h"
#include "hw_defs.h"

#define IRDMA_HMC_SD_SIZE		(2 * 1024 * 1024)
#define IRDMA_HMC_PD_PER_SD		512
#define IRDMA_HMC_MAX_SDS		8192
#define IRDMA_HMC_FPM_BUF_SIZE		176
#define IRDMA_HMC_FPM_BUF_WORDS		(IRDMA_HMC_FPM_BUF_SIZE / 8)

/**
 * enum irdma_hmc_obj - HMC object types, in FPM placement order
 * @IRDMA_HMC_QP: QP contexts
 * @IRDMA_HMC_CQ: CQ contexts
 * @IRDMA_HMC_HTE: hash table entries
 * @IRDMA_HMC_ARP: ARP cache
 * @IRDMA_HMC_APBVT: accelerated port table
 * @IRDMA_HMC_MR: memory regions / windows
 * @IRDMA_HMC_XF: transmit FIFO
 * @IRDMA_HMC_XFFL: transmit FIFO free list
 * @IRDMA_HMC_Q1: inbound read queue
 * @IRDMA_HMC_Q1FL: its free list
 * @IRDMA_HMC_TIMER: timers
 * @IRDMA_HMC_FSIMC: gen2 only
 * @IRDMA_HMC_FSIAV: gen2 only
 * @IRDMA_HMC_PBLE: physical buffer list entries
 * @IRDMA_HMC_RRF: gen2 only
 * @IRDMA_HMC_RRFFL: gen2 only
 * @IRDMA_HMC_HDR: gen2 only
 * @IRDMA_HMC_MD: gen2 only
 * @IRDMA_HMC_OOISC: gen2 only
 * @IRDMA_HMC_OOISCFFL: gen2 only
 * @IRDMA_HMC_OBJ_MAX: number of types
 */
enum irdma_hmc_obj {
	IRDMA_HMC_QP,
	IRDMA_HMC_CQ,
	IRDMA_HMC_HTE,
	IRDMA_HMC_ARP,
	IRDMA_HMC_APBVT,
	IRDMA_HMC_MR,
	IRDMA_HMC_XF,
	IRDMA_HMC_XFFL,
	IRDMA_HMC_Q1,
	IRDMA_HMC_Q1FL,
	IRDMA_HMC_TIMER,
	IRDMA_HMC_FSIMC,
	IRDMA_HMC_FSIAV,
	IRDMA_HMC_PBLE,
	IRDMA_HMC_RRF,
	IRDMA_HMC_RRFFL,
	IRDMA_HMC_HDR,
	IRDMA_HMC_MD,
	IRDMA_HMC_OOISC,
	IRDMA_HMC_OOISCFFL,
	IRDMA_HMC_OBJ_MAX,
};

/**
 * struct irdma_hmc_obj_info - one object type in the FPM
 * @base: byte offset of object 0 in the FPM (512-byte aligned)
 * @size: bytes per object
 * @cnt: objects configured
 * @max_cnt: objects the function may have (from QUERY_FPM)
 */
struct irdma_hmc_obj_info {
	u64 base;
	u64 size;
	u32 cnt;
	u32 max_cnt;
};

/**
 * struct irdma_hmc_layout - the FPM of one function
 * @obj: per object type
 * @total: bytes used
 * @first_sd: first SD index of the function
 * @max_sds: SDs the function may use
 * @sd_cnt: SDs the layout needs
 * @hw_rev: 1 or 2
 */
struct irdma_hmc_layout {
	struct irdma_hmc_obj_info obj[IRDMA_HMC_OBJ_MAX];
	u64 total;
	u32 first_sd;
	u32 max_sds;
	u32 sd_cnt;
	u8 hw_rev;
};

bool irdma_hmc_obj_present(u8 hw_rev, enum irdma_hmc_obj obj);
unsigned int irdma_hmc_obj_word(enum irdma_hmc_obj obj);
int irdma_hmc_parse_query(const __le64 *buf, u8 hw_rev,
			  struct irdma_hmc_layout *l);
int irdma_hmc_profile_counts(struct irdma_hmc_layout *l, u32 qps, u32 pbles);
int irdma_hmc_plan(struct irdma_hmc_layout *l);
void irdma_hmc_build_commit(const struct irdma_hmc_layout *l, __le64 *buf);
int irdma_hmc_parse_commit(const __le64 *buf, struct irdma_hmc_layout *l);
int irdma_hmc_obj_locate(const struct irdma_hmc_layout *l,
			 enum irdma_hmc_obj obj, u32 idx, u32 *sd, u32 *pd,
			 u32 *off);
int irdma_hmc_sd_set(u64 pa, u32 sd_idx, bool direct,
		     struct irdma_sd_update *out);
void irdma_hmc_sd_clear(u32 sd_idx, bool direct, struct irdma_sd_update *out);
int irdma_hmc_pd_entry(u64 page_pa, u64 *entry);
u32 irdma_hmc_pdinv(u32 sd_idx, u32 pd_idx);

#endif /* IRDMA_HMC_H */
