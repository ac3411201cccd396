// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma_sim: register windows, the PCI BARs the functions' registers live
 * in.
 *
 * A driver written for the adapter wants a PCI function: it maps user
 * doorbell pages from BAR0 (pci_resource_start(pdev, 0) plus the
 * doorbell offset), allocates DMA memory against the function and reports
 * its IDs. The harness's QEMU gives each guest a few "bochs-display"
 * devices: of the devices QEMU 7.2 offers, display adapters are the only
 * ones whose BAR0 is plain RAM (ivshmem's RAM is BAR2, its BAR0 is 256
 * bytes of registers), and it can be sized to the E810's 8 MiB register
 * space. Each simulated function takes a free one and keeps its registers
 * there, so a driver sees a real BAR0: its uncached mapping, its user
 * doorbell page at the hardware's offset, the engine reading what the
 * driver wrote. A function created when none is free keeps its registers
 * in the simulator's RAM, as before; Linux 6.1's irdma cannot bind to
 * such a function.
 *
 * Matched by vendor, device and class: QEMU's bochs-display is 1234:1111
 * of class "display, other" (0x0380); its standard VGA, same IDs, is class
 * 0x0300 and is left alone.
 */
#include <linux/pci.h>

#include "isim.h"

#define ISIM_WIN_VENDOR		0x1234
#define ISIM_WIN_DEVICE		0x1111

/**
 * struct isim_win - one register window
 * @node: in isim_wins
 * @pdev: the PCI function
 * @regs: BAR0, mapped uncached
 * @len: its length
 * @user: the function whose registers it holds, or NULL when free
 */
struct isim_win {
	struct list_head node;
	struct pci_dev *pdev;
	void __iomem *regs;
	resource_size_t len;
	struct isim_func *user;
};

/* isim_wins_lock protects isim_wins and every window's @user */
static DEFINE_MUTEX(isim_wins_lock);
static LIST_HEAD(isim_wins);

/**
 * isim_win_get - give a function a free register window
 * @f: function, its register map chosen
 *
 * Return: true when @f->regs and @f->win now point into a window.
 */
bool isim_win_get(struct isim_func *f)
{
	struct isim_win *w;
	bool found = false;

	mutex_lock(&isim_wins_lock);
	list_for_each_entry(w, &isim_wins, node) {
		if (w->user || w->len < f->rm->bar_len)
			continue;
		w->user = f;
		f->win = w;
		f->regs = (void __force *)w->regs;
		found = true;
		break;
	}
	mutex_unlock(&isim_wins_lock);
	/* "window" in the function's sysfs directory: the PCI function */
	if (found && device_is_registered(&f->dev) &&
	    sysfs_create_link(&f->dev.kobj, &f->win->pdev->dev.kobj, "window"))
		dev_warn(&f->dev, "no sysfs link to the register window\n");
	return found;
}

/**
 * isim_win_put - give a function's register window back
 * @f: function
 */
void isim_win_put(struct isim_func *f)
{
	if (!f->win)
		return;
	if (device_is_registered(&f->dev))
		sysfs_remove_link(&f->dev.kobj, "window");
	mutex_lock(&isim_wins_lock);
	f->win->user = NULL;
	mutex_unlock(&isim_wins_lock);
	f->win = NULL;
	f->regs = NULL;
}

/**
 * isim_win_pdev - the PCI function of a function's register window
 * @f: function
 *
 * Return: the PCI function, or NULL when the registers are RAM.
 */
struct pci_dev *isim_win_pdev(struct isim_func *f)
{
	return f->win ? f->win->pdev : NULL;
}

static int isim_win_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct isim_win *w;
	int err;

	if (!(pci_resource_flags(pdev, 0) & IORESOURCE_MEM))
		return -ENODEV;
	w = devm_kzalloc(&pdev->dev, sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	err = pcim_enable_device(pdev);
	if (err)
		return err;
	err = pcim_iomap_regions(pdev, BIT(0), KBUILD_MODNAME);
	if (err)
		return err;
	/* the engine reaches all of memory, as the adapter does */
	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err)
		return err;
	pci_set_master(pdev);
	w->pdev = pdev;
	w->regs = pcim_iomap_table(pdev)[0];
	w->len = pci_resource_len(pdev, 0);
	pci_set_drvdata(pdev, w);
	mutex_lock(&isim_wins_lock);
	list_add_tail(&w->node, &isim_wins);
	mutex_unlock(&isim_wins_lock);
	pci_info(pdev, "register window of %llu KiB\n", (u64)w->len >> 10);
	return 0;
}

/* the bus removes every function before the driver goes */
static void isim_win_remove(struct pci_dev *pdev)
{
	struct isim_win *w = pci_get_drvdata(pdev);

	mutex_lock(&isim_wins_lock);
	WARN_ON_ONCE(w->user);
	list_del(&w->node);
	mutex_unlock(&isim_wins_lock);
}

static const struct pci_device_id isim_win_ids[] = {
	{ PCI_DEVICE(ISIM_WIN_VENDOR, ISIM_WIN_DEVICE),
	  .class = PCI_CLASS_DISPLAY_OTHER << 8, .class_mask = 0xffff00 },
	{}
};

static struct pci_driver isim_win_driver = {
	.name = KBUILD_MODNAME,
	.id_table = isim_win_ids,
	.probe = isim_win_probe,
	.remove = isim_win_remove,
};

/**
 * isim_win_mod_init - take the machine's register windows
 *
 * Return: 0 or a negative errno.
 */
int isim_win_mod_init(void)
{
	return pci_register_driver(&isim_win_driver);
}

/**
 * isim_win_mod_exit - give the register windows back, no function left
 */
void isim_win_mod_exit(void)
{
	pci_unregister_driver(&isim_win_driver);
}
