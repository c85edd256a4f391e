/*
 * worldgame.h — the World Game's war phase as a rule system (a game of
 * countries and points, no board): judge/systems/WORLDGAME.md.
 */
#ifndef POUCH_WORLDGAME_H
#define POUCH_WORLDGAME_H

#include "../system.h"

extern const struct rule_system worldgame_system;

#endif
