/*
 * muna.h — the MUN Alfrink 1935 Historical Committee's rule system, a
 * layer over the standard one (judge/systems/MUNA.md).
 */
#ifndef POUCH_SYSTEMS_MUNA_H
#define POUCH_SYSTEMS_MUNA_H

#include "../system.h"

extern const struct rule_system muna_system;

#endif
