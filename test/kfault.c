// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_test_kfault: a kernel verbs consumer that makes one object at a
 * time on request, for the allocation-failure walks of the guest scripts
 * (tools/guest/faultwalk.c). Writing "DEV create KIND" or "DEV destroy
 * KIND" to /sys/kernel/debug/irdma_test_kfault/op makes or destroys, in
 * the writer's context, one kernel object on irdma device DEV, so that the
 * writer's fault injection (/proc/thread-self/fail-nth) reaches the
 * allocations of the kernel verbs. The write returns the verb's error.
 *
 * KIND is one of pd, cq, qp_rc, qp_ud, mr (for fast registration), ah (to
 * the port's own GID 0), rts (the RC QP moved through INIT and RTR to RTS,
 * as its own destination; destroy moves it back to RESET) or nop (nothing:
 * the fault points of the write itself). Each kind has one slot per
 * device: what a kind needs must be there (the PD for QPs, MRs and AHs,
 * the CQ for QPs, the RC QP for rts), and what is in use cannot be
 * destroyed. Whatever is left goes when its device or the module goes.
 */
#include <linux/debugfs.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

/**
 * struct kf_dev - the objects made on one irdma device
 * @list: on kf_devs
 * @dev: the device
 * @pd: protection domain of the QPs, the MR and the AH
 * @cq: send and receive CQ of both QPs
 * @rc: RC QP
 * @ud: UD QP
 * @mr: fast-registration MR
 * @ah: address handle to the port's own GID 0
 * @rts: @rc has been moved to RTS
 */
struct kf_dev {
	struct list_head list;
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *rc;
	struct ib_qp *ud;
	struct ib_mr *mr;
	struct ib_ah *ah;
	bool rts;
};

/* kf_lock protects kf_devs and every kf_dev's objects */
static DEFINE_MUTEX(kf_lock);
static LIST_HEAD(kf_devs);
static struct dentry *kf_dir;

/* GID 0 of port 1 and the MAC of its netdev, the AV of "ah" and "rts" */
static int kf_own_av(struct kf_dev *kd, struct rdma_ah_attr *av)
{
	const struct ib_gid_attr *ga;
	union ib_gid gid;
	u8 mac[ETH_ALEN];
	int ret;

	ga = rdma_get_gid_attr(kd->dev, 1, 0);
	if (IS_ERR(ga))
		return PTR_ERR(ga);
	ret = rdma_read_gid_l2_fields(ga, NULL, mac);
	if (!ret) {
		memset(av, 0, sizeof(*av));
		av->type = RDMA_AH_ATTR_TYPE_ROCE;
		rdma_ah_set_port_num(av, 1);
		gid = ga->gid;
		rdma_ah_set_grh(av, &gid, 0, 0, 64, 0);
		memcpy(av->roce.dmac, mac, ETH_ALEN);
	}
	rdma_put_gid_attr(ga);
	return ret;
}

static struct ib_qp *kf_qp(struct kf_dev *kd, enum ib_qp_type type)
{
	struct ib_qp_init_attr init = {
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.send_cq = kd->cq,
		.recv_cq = kd->cq,
		.cap = {
			.max_send_wr = 16,
			.max_recv_wr = 16,
			.max_send_sge = 2,
			.max_recv_sge = 2,
		},
	};

	if (!kd->pd || !kd->cq)
		return ERR_PTR(-ENOENT);
	return ib_create_qp(kd->pd, &init);
}

/* the RC QP through INIT and RTR to RTS, with itself as destination */
static int kf_rts(struct kf_dev *kd)
{
	struct ib_qp_attr a = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IB_ACCESS_REMOTE_WRITE |
				   IB_ACCESS_REMOTE_READ,
	};
	int ret;

	if (!kd->rc)
		return -ENOENT;
	ret = ib_modify_qp(kd->rc, &a, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	ret = kf_own_av(kd, &a.ah_attr);
	if (ret)
		return ret;
	a.qp_state = IB_QPS_RTR;
	a.path_mtu = IB_MTU_1024;
	a.dest_qp_num = kd->rc->qp_num;
	a.rq_psn = 1;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	ret = ib_modify_qp(kd->rc, &a, IB_QP_STATE | IB_QP_AV |
			   IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IB_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 1;
	a.max_rd_atomic = 1;
	return ib_modify_qp(kd->rc, &a, IB_QP_STATE | IB_QP_TIMEOUT |
			    IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			    IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC);
}

static int kf_create(struct kf_dev *kd, const char *kind)
{
	struct rdma_ah_attr av;
	void *obj = NULL;
	int ret;

	if (!strcmp(kind, "nop"))
		return 0;
	if (!strcmp(kind, "pd")) {
		if (kd->pd)
			return -EEXIST;
		obj = ib_alloc_pd(kd->dev, 0);
		if (!IS_ERR(obj))
			kd->pd = obj;
	} else if (!strcmp(kind, "cq")) {
		if (kd->cq)
			return -EEXIST;
		obj = ib_alloc_cq(kd->dev, NULL, 16, 0, IB_POLL_SOFTIRQ);
		if (!IS_ERR(obj))
			kd->cq = obj;
	} else if (!strcmp(kind, "qp_rc") || !strcmp(kind, "qp_ud")) {
		struct ib_qp **slot = kind[3] == 'r' ? &kd->rc : &kd->ud;

		if (*slot)
			return -EEXIST;
		obj = kf_qp(kd, kind[3] == 'r' ? IB_QPT_RC : IB_QPT_UD);
		if (!IS_ERR(obj))
			*slot = obj;
	} else if (!strcmp(kind, "mr")) {
		if (kd->mr)
			return -EEXIST;
		obj = kd->pd ? ib_alloc_mr(kd->pd, IB_MR_TYPE_MEM_REG, 16) :
			       ERR_PTR(-ENOENT);
		if (!IS_ERR(obj))
			kd->mr = obj;
	} else if (!strcmp(kind, "ah")) {
		if (kd->ah)
			return -EEXIST;
		if (!kd->pd)
			return -ENOENT;
		ret = kf_own_av(kd, &av);
		if (ret)
			return ret;
		obj = rdma_create_ah(kd->pd, &av, RDMA_CREATE_AH_SLEEPABLE);
		if (!IS_ERR(obj))
			kd->ah = obj;
	} else if (!strcmp(kind, "rts")) {
		if (kd->rts)
			return -EEXIST;
		ret = kf_rts(kd);
		kd->rts = !ret;
		return ret;
	} else {
		return -EINVAL;
	}
	return PTR_ERR_OR_ZERO(obj);
}

/* destroy @kind; what another object still uses stays (-EBUSY) */
static int kf_destroy(struct kf_dev *kd, const char *kind)
{
	struct ib_qp_attr reset = { .qp_state = IB_QPS_RESET };
	int ret = 0;

	if (!strcmp(kind, "nop"))
		return 0;
	if (!strcmp(kind, "pd")) {
		if (!kd->pd)
			return -ENOENT;
		if (kd->rc || kd->ud || kd->mr || kd->ah)
			return -EBUSY;
		ib_dealloc_pd(kd->pd);
		kd->pd = NULL;
	} else if (!strcmp(kind, "cq")) {
		if (!kd->cq)
			return -ENOENT;
		if (kd->rc || kd->ud)
			return -EBUSY;
		ib_free_cq(kd->cq);
		kd->cq = NULL;
	} else if (!strcmp(kind, "qp_rc") || !strcmp(kind, "qp_ud")) {
		struct ib_qp **slot = kind[3] == 'r' ? &kd->rc : &kd->ud;

		if (!*slot)
			return -ENOENT;
		if (slot == &kd->rc && kd->rts)
			return -EBUSY;
		ret = ib_destroy_qp(*slot);
		if (!ret)
			*slot = NULL;
	} else if (!strcmp(kind, "mr")) {
		if (!kd->mr)
			return -ENOENT;
		ret = ib_dereg_mr(kd->mr);
		if (!ret)
			kd->mr = NULL;
	} else if (!strcmp(kind, "ah")) {
		if (!kd->ah)
			return -ENOENT;
		rdma_destroy_ah(kd->ah, RDMA_DESTROY_AH_SLEEPABLE);
		kd->ah = NULL;
	} else if (!strcmp(kind, "rts")) {
		if (!kd->rts)
			return -ENOENT;
		ret = ib_modify_qp(kd->rc, &reset, IB_QP_STATE);
		kd->rts = !!ret;
	} else {
		ret = -EINVAL;
	}
	return ret;
}

/* everything left on @kd, in the reverse order of making */
static void kf_destroy_all(struct kf_dev *kd)
{
	static const char * const order[] = {
		"rts", "ah", "mr", "qp_ud", "qp_rc", "cq", "pd",
	};
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		ret = kf_destroy(kd, order[i]);
		if (ret && ret != -ENOENT)
			pr_err("%s: %s left: %d\n", dev_name(&kd->dev->dev),
			       order[i], ret);
	}
}

static struct kf_dev *kf_find(struct ib_device *dev)
{
	struct kf_dev *kd;

	lockdep_assert_held(&kf_lock);
	list_for_each_entry(kd, &kf_devs, list)
		if (kd->dev == dev)
			return kd;
	return NULL;
}

/* "DEV create|destroy KIND" */
static ssize_t kf_op_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	char buf[96], name[IB_DEVICE_NAME_MAX], verb[8], kind[8];
	struct ib_device *dev;
	struct kf_dev *kd;
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%63s %7s %7s", name, verb, kind) != 3)
		return -EINVAL;
	dev = ib_device_get_by_name(name, RDMA_DRIVER_IRDMA);
	if (!dev)
		return -ENODEV;
	mutex_lock(&kf_lock);
	kd = kf_find(dev);
	if (!kd)
		ret = -ENODEV;
	else if (!strcmp(verb, "create"))
		ret = kf_create(kd, kind);
	else if (!strcmp(verb, "destroy"))
		ret = kf_destroy(kd, kind);
	else
		ret = -EINVAL;
	mutex_unlock(&kf_lock);
	ib_device_put(dev);
	return ret ? ret : len;
}

static const struct file_operations kf_op_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = kf_op_write,
	.llseek = no_llseek,
};

static int kf_add(struct ib_device *dev)
{
	struct kf_dev *kd;

	if (dev->ops.driver_id != RDMA_DRIVER_IRDMA)
		return -EOPNOTSUPP;
	kd = kzalloc(sizeof(*kd), GFP_KERNEL);
	if (!kd)
		return -ENOMEM;
	kd->dev = dev;
	mutex_lock(&kf_lock);
	list_add(&kd->list, &kf_devs);
	mutex_unlock(&kf_lock);
	return 0;
}

static void kf_remove(struct ib_device *dev, void *data)
{
	struct kf_dev *kd;

	mutex_lock(&kf_lock);
	kd = kf_find(dev);
	if (kd) {
		kf_destroy_all(kd);
		list_del(&kd->list);
		kfree(kd);
	}
	mutex_unlock(&kf_lock);
}

static struct ib_client kf_client = {
	.name = "irdma_test_kfault",
	.add = kf_add,
	.remove = kf_remove,
};

static int __init kf_init(void)
{
	int ret = ib_register_client(&kf_client);

	if (ret)
		return ret;
	kf_dir = debugfs_create_dir("irdma_test_kfault", NULL);
	debugfs_create_file("op", 0200, kf_dir, NULL, &kf_op_fops);
	return 0;
}

static void __exit kf_exit(void)
{
	debugfs_remove(kf_dir);
	ib_unregister_client(&kf_client);
}

module_init(kf_init);
module_exit(kf_exit);

MODULE_DESCRIPTION("irdma kernel verbs objects on request, for fault walks");
MODULE_LICENSE("Dual BSD/GPL");
