// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: which driver claims a function.
 *
 * Two drivers can run a simulated function: this project's irdma and
 * Linux 6.1's own, built by the harness as irdma_upstream
 * (tools/upstream/). The parent decides, per function, by the name it
 * plugs the auxiliary device under, as ice does with "ice.roce" and
 * "ice.iwarp": the fourth word of new_device picks it, and the
 * function's debugfs file "driver" tells it and, written, hands the
 * function over (isim_aux_replug(): unplug, reset, plug).
 */
#include <linux/debugfs.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "isim.h"

static const char * const isim_claim_names[] = {
	[ISIM_CLAIM_IRDMA] = "irdma",
	[ISIM_CLAIM_UPSTREAM] = "upstream",
};

static const char * const isim_claim_dev_names[] = {
	[ISIM_CLAIM_IRDMA] = ISIM_AUX_DEV_NAME,
	[ISIM_CLAIM_UPSTREAM] = ISIM_AUX_UP_DEV_NAME,
};

/**
 * isim_claim_dev_name - the auxiliary device name a driver matches
 * @claim: the driver
 *
 * Return: the name, without the module's prefix.
 */
const char *isim_claim_dev_name(enum isim_claim claim)
{
	return isim_claim_dev_names[claim];
}

/**
 * isim_claim_parse - the driver a word names
 * @word: "irdma" or "upstream", a newline allowed after it
 * @claim: the driver
 *
 * Return: 0, or -EINVAL for any other word.
 */
int isim_claim_parse(const char *word, enum isim_claim *claim)
{
	int i = sysfs_match_string(isim_claim_names, word);

	if (i < 0)
		return -EINVAL;
	*claim = i;
	return 0;
}

static ssize_t isim_claim_read(struct file *file, char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	struct isim_func *f = file->private_data;
	char buf[16];
	int n;

	mutex_lock(&f->aux_lock);
	n = scnprintf(buf, sizeof(buf), "%s\n", isim_claim_names[f->claim]);
	mutex_unlock(&f->aux_lock);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static ssize_t isim_claim_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	struct isim_func *f = file->private_data;
	enum isim_claim claim;
	char buf[16];
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (isim_claim_parse(buf, &claim))
		return -EINVAL;
	err = isim_aux_replug(f, claim);
	return err ? err : len;
}

static const struct file_operations isim_claim_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = isim_claim_read,
	.write = isim_claim_write,
	.llseek = no_llseek,
};

/**
 * isim_claim_debugfs_init - the function's "driver" file
 * @f: function, its debugfs directory made
 */
void isim_claim_debugfs_init(struct isim_func *f)
{
	debugfs_create_file("driver", 0600, f->ddir, f, &isim_claim_fops);
}
