// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Peer mappings
 *
 * A BO shared by dma-buf between two vaccel devices is one BO: the GpuMmu
 * model's linked adapters, where a process maps a GPU virtual address "to
 * self or to a specific peer GPU".  vaccel exports its BOs with its own
 * &struct dma_buf_ops (the DRM helpers', under a name it can recognise);
 * when another vaccel device imports such a dma-buf, it does not map the
 * exporter's pages through a scatterlist, which would pin them in system
 * memory and hide every move from the importer.  It makes a *peer object*
 * instead: a GEM object of the importing device with a handle, an mmap
 * offset and a place in fdinfo like any other, that stands for the
 * exporter's BO.  The peer object holds a reference on the dma-buf, and so
 * on the exporter's BO and its device.
 *
 * Every operation on the peer object's handle acts on the exporter's BO
 * (vaccel_bo_resolve()):
 *
 * - VM_BIND maps the exporter's BO itself into the importer's VM.  The
 *   mapping is one of the BO's own (its &drm_gem_object.gpuva list), so a
 *   move of the BO, by either device, rewrites the importer's page-table
 *   entries and invalidates the importer's TLBs as it does the exporter's,
 *   orders itself against the importer's work through the importer's VM,
 *   and an evicted BO comes back at the importer's next SUBMIT.  Where the
 *   BO is in the exporter's segment, the importer's engines reach it
 *   through the fabric as *peer memory*; in system memory, as system
 *   memory; moved into the importer's own segment, as local memory.
 * - BO_INFO reports the BO's size, region and evictions, with
 *   %DRM_VACCEL_BO_IMPORTED; BO_MIGRATE moves the BO, to any region, as
 *   its exporter could.
 * - A CPU mapping of the peer object maps the dma-buf, that is the BO
 *   wherever it is.
 *
 * Every BO holds a reference on its device, so that a BO mapped by a peer
 * survives its exporter's unbinding; a BO whose home segment went with its
 * device stays in system memory.  Importers that are not vaccel devices
 * attach to the dma-buf as before: the BO is then pinned in system memory
 * while attached, and one in device memory refuses them.
 */

#include <linux/dma-buf.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/vaccel_accel.h>

#include "vaccel_drv.h"
#include "vaccel_gem.h"

MODULE_IMPORT_NS(DMA_BUF);

/* The DRM helpers' dma-buf operations, under a name only vaccel exports. */
static const struct dma_buf_ops vaccel_dmabuf_ops = {
	.cache_sgt_mapping = true,
	.attach = drm_gem_map_attach,
	.detach = drm_gem_map_detach,
	.map_dma_buf = drm_gem_map_dma_buf,
	.unmap_dma_buf = drm_gem_unmap_dma_buf,
	.release = drm_gem_dmabuf_release,
	.mmap = drm_gem_dmabuf_mmap,
	.vmap = drm_gem_dmabuf_vmap,
	.vunmap = drm_gem_dmabuf_vunmap,
};

/**
 * vaccel_gem_prime_export() - &drm_gem_object_funcs.export of vaccel's BOs
 * @obj: the BO
 * @flags: the flags of the file the dma-buf gets
 *
 * Context: Process context.
 * Return: a new dma-buf of @obj, or an ERR_PTR.
 */
struct dma_buf *vaccel_gem_prime_export(struct drm_gem_object *obj, int flags)
{
	struct dma_buf_export_info exp_info = {
		.exp_name = KBUILD_MODNAME,
		.owner = THIS_MODULE,
		.ops = &vaccel_dmabuf_ops,
		.size = obj->size,
		.flags = flags,
		.priv = obj,
		.resv = obj->resv,
	};

	return drm_gem_dmabuf_export(obj->dev, &exp_info);
}

static void vaccel_peer_free(struct drm_gem_object *obj)
{
	struct vaccel_bo *bo = to_vaccel_bo(obj);
	struct drm_device *drm = obj->dev;

	vaccel_bo_unaccount(obj);
	/* May be the last reference on the exporter's BO and device. */
	dma_buf_put(bo->peer_buf);
	mutex_destroy(&bo->gpuva_lock);
	drm_gem_object_release(obj);
	kfree(bo);
	drm_dev_put(drm);
}

static enum drm_gem_object_status vaccel_peer_status(struct drm_gem_object *obj)
{
	struct drm_gem_object *src = &to_vaccel_bo(obj)->peer->base.base;

	return src->funcs->status(src);
}

/* A CPU mapping of the peer object is one of the dma-buf. */
static int vaccel_peer_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	struct vaccel_bo *bo = to_vaccel_bo(obj);
	int ret;

	/* The exporter's operations take the mapping over. */
	vma->vm_private_data = NULL;
	vma->vm_ops = NULL;
	ret = dma_buf_mmap(bo->peer_buf, vma, 0);
	/* The exporter's BO holds the mapping: drop drm_gem_mmap_obj()'s. */
	if (!ret)
		drm_gem_object_put(obj);
	return ret;
}

/* Exported again, the peer object is the dma-buf it came from. */
static struct dma_buf *vaccel_peer_export(struct drm_gem_object *obj, int flags)
{
	struct dma_buf *buf = to_vaccel_bo(obj)->peer_buf;

	get_dma_buf(buf);
	return buf;
}

static const struct drm_gem_object_funcs vaccel_peer_funcs = {
	.free = vaccel_peer_free,
	.open = vaccel_gem_open,
	.close = vaccel_gem_close,
	.status = vaccel_peer_status,
	.mmap = vaccel_peer_mmap,
	.export = vaccel_peer_export,
};

/* A peer object of @drm for @buf, a dma-buf of another vaccel device. */
static struct drm_gem_object *vaccel_peer_import(struct drm_device *drm,
						 struct dma_buf *buf)
{
	struct vaccel_bo *src = to_vaccel_bo(buf->priv);
	struct drm_gem_object *obj;
	struct vaccel_bo *bo;
	int ret;

	obj = vaccel_gem_create_object(drm, buf->size);
	if (IS_ERR(obj))
		return obj;
	bo = to_vaccel_bo(obj);
	obj->funcs = &vaccel_peer_funcs;
	/* Fences and locks are the exporter's BO's, as for any import. */
	obj->resv = buf->resv;
	drm_gem_private_object_init(drm, obj, buf->size);
	ret = drm_gem_create_mmap_offset(obj);
	if (ret) {
		drm_gem_object_release(obj);
		mutex_destroy(&bo->gpuva_lock);
		kfree(bo);
		return ERR_PTR(ret);
	}
	get_dma_buf(buf);
	bo->peer_buf = buf;
	bo->peer = src;
	bo->flags = READ_ONCE(src->flags) & DRM_VACCEL_BO_NO_MMAP;
	vaccel_bo_account(obj);
	return obj;
}

/**
 * vaccel_gem_prime_import() - &drm_driver.gem_prime_import
 * @drm: the importing device
 * @buf: the dma-buf
 *
 * A dma-buf of this device gives back its BO; one of another vaccel device
 * a peer object; any other the generic import, which maps the exporter's
 * pages (vaccel_gem_prime_import_sg_table()).
 *
 * Context: Process context.
 * Return: a referenced GEM object, or an ERR_PTR.
 */
struct drm_gem_object *vaccel_gem_prime_import(struct drm_device *drm,
					       struct dma_buf *buf)
{
	struct drm_gem_object *obj = buf->priv;

	if (buf->ops != &vaccel_dmabuf_ops)
		return drm_gem_prime_import(drm, buf);
	if (obj->dev == drm) {
		drm_gem_object_get(obj);
		return obj;
	}
	return vaccel_peer_import(drm, buf);
}
