/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pre_mod.c - the module the preload test's program dlopens, runs and
 * dlcloses (premod.so): mod_burn() is sampled while the module is loaded
 * and must still be named in the profile after it is unloaded.
 */
#include "pre_burn.h"
#include "testfns.h"

KEEP double mod_burn(double seconds)
{
	return pre_burn(seconds);
}
