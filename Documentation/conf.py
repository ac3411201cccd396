# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Sphinx configuration for irdma's own documentation.
#
# The kernel-doc directives use the kernel's Sphinx extension and script,
# found in the kernel tree this driver sits in (the repository at
# drivers/infiniband/hw/irdma) or in $IRDMA_KERNEL_TREE. tools/irdma-vm
# builds it from its cached kernel tree:
#
#   sphinx-build -W -b html Documentation OUT
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.dirname(HERE)


def kernel_tree():
    for tree in (os.environ.get("IRDMA_KERNEL_TREE"),
                 os.path.join(DRIVER, "..", "..", "..", "..")):
        if tree and os.path.isfile(os.path.join(tree, "scripts",
                                                "kernel-doc")):
            return os.path.abspath(tree)
    sys.exit("irdma docs: no kernel tree; put this repository at "
             "drivers/infiniband/hw/irdma of one or set IRDMA_KERNEL_TREE")


TREE = kernel_tree()
sys.path.insert(0, os.path.join(TREE, "Documentation", "sphinx"))

project = "irdma"
master_doc = "index"
extensions = ["kerneldoc"]
exclude_patterns = ["_build"]
# kernel-doc runs on the driver's files: directives name them from the
# repository root (cm.c, sim/isim_aux.h)
kerneldoc_bin = os.path.join(TREE, "scripts", "kernel-doc")
kerneldoc_srctree = DRIVER
# the kernel's own list (Documentation/conf.py) of attributes Sphinx's C
# parser does not know, those this driver uses
c_id_attributes = ["__iomem", "__user", "__rcu", "__must_check",
                   "__maybe_unused", "__always_unused", "__printf"]
html_theme = "alabaster"
