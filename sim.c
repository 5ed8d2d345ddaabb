// SPDX-License-Identifier: GPL-2.0-only
/* The simulated card (placeholder until the model lands). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

struct sim_card {
	struct device dev;
	struct sim_params p;
	uint64_t now_ns;
};

void sim_params_default(struct sim_params *p)
{
	memset(p, 0, sizeof(*p));
	p->size_byte = 8ULL << 30;
	p->erase_byte = 4 << 20;
	p->page_byte = 16 << 10;
	p->open_au = 4;
	p->open_random = 2;
	p->fat_nr = 1;
	p->noise_pct = 1;
	p->seed = 1;
	p->read_mbps = 20;
	p->write_mbps = 10;
	p->access_us = 500;
	p->page_us = 150;
	p->au_us = 150;
}

int sim_parse_spec(struct sim_params *p, const char *spec, char *err,
		   size_t err_len)
{
	(void)p;
	(void)spec;
	(void)err;
	(void)err_len;
	return 0;
}

static int sim_io(struct device *dev, void *buf, size_t len, off_t off)
{
	struct sim_card *c = (struct sim_card *)dev;

	(void)buf;
	(void)off;
	c->now_ns += (uint64_t)(c->p.access_us * 1000 +
				len * 1000.0 / c->p.read_mbps);
	return 0;
}

static int sim_write(struct device *dev, const void *buf, size_t len,
		     off_t off)
{
	return sim_io(dev, (void *)buf, len, off);
}

static int sim_discard(struct device *dev, off_t off, uint64_t len)
{
	(void)dev;
	(void)off;
	(void)len;
	return 0;
}

static uint64_t sim_now(struct device *dev)
{
	return ((struct sim_card *)dev)->now_ns;
}

static void sim_destroy(struct device *dev)
{
	free(dev);
}

static const struct dev_ops sim_ops = {
	.read = sim_io,
	.write = sim_write,
	.discard = sim_discard,
	.now_ns = sim_now,
	.destroy = sim_destroy,
};

int sim_open(struct device **devp, const struct sim_params *p)
{
	struct sim_card *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->p = *p;
	c->dev.ops = &sim_ops;
	c->dev.path = "simulated card";
	c->dev.size_byte = p->size_byte;
	c->dev.logical_block_size = 512;
	*devp = &c->dev;
	return 0;
}
