/*
 * bounce.c — mail that came back (bounce.h).
 */
#include "bounce.h"

#include <stdio.h>

#include "../lib/str.h"
#include "outbound.h"

/* A bounce from a delivery status notification: counted per game, and
 * after BOUNCE_LIMIT the address is no longer written to (its game's GMs
 * are told) until mail comes from it again. */
void
bounce_handle(struct judge *j, const struct inmsg *m)
{
	int i, k, p, b;

	for (i = 0; i < m->nbounced; i++) {
		outbound_log(j, NULL, "delivery to %s failed (bounce)", m->bounced[i]);
		for (k = 0; k < j->ngames; k++) {
			struct game *g = j->games[k];
			char subject[160], text[600];
			if (g->status == GAME_ENDED)
				continue;
			p = game_power_of(g, m->bounced[i]);
			if (p == POWER_NONE && !game_is_gm(g, m->bounced[i]))
				continue;
			for (b = 0; b < g->nbouncing; b++)
				if (str_eq_nocase(g->bouncing[b].addr, m->bounced[i]))
					break;
			if (b == g->nbouncing) {
				if (b == GAME_MAX_BOUNCING)
					continue;
				GAME_ROOM(g, bouncing, GAME_MAX_BOUNCING);
				str_copy(g->bouncing[b].addr, m->bounced[i], ADDR_MAX);
				g->bouncing[b].count = 0;
				g->nbouncing++;
			}
			g->bouncing[b].count++;
			judge_touch(j, g);
			judge_audit(j, g, "mail to %s bounced (%d)", m->bounced[i], g->bouncing[b].count);
			if (g->bouncing[b].count > BOUNCE_LIMIT)
				continue;	/* suspended already; the GMs know */
			if (g->bouncing[b].count == BOUNCE_LIMIT) {
				snprintf(subject, sizeof subject, "[%s] mail to %s suspended", g->name,
				    m->bounced[i]);
				snprintf(text, sizeof text, "Mail from the judge to %s, a member of game %s, "
				    "came back %d times.\nThe judge no longer writes to that address until "
				    "mail comes from it again.\nYou may want to REPLACE the delegation's "
				    "members.\n", m->bounced[i], g->name, BOUNCE_LIMIT);
			} else {
				snprintf(subject, sizeof subject, "[%s] mail to %s bounced", g->name,
				    m->bounced[i]);
				snprintf(text, sizeof text, "Mail from the judge to %s, a member of game %s, "
				    "could not be delivered.\nYou may want to REPLACE the delegation's "
				    "members.\n", m->bounced[i], g->name);
			}
			for (p = 0; p < g->ngms; p++) {
				const char *to[1] = { g->gms[p] };
				if (!str_eq_nocase(g->gms[p], m->bounced[i]))
					outbound_send(j, g, to, 1, NULL, 0, subject, text, NULL, NULL, OUT_GENERATED);
			}
		}
	}
	if (m->nbounced == 0)
		outbound_log(j, NULL, "a bounce without a recognisable recipient");
}

/* Mail came from addr: it works again wherever it bounced. */
void
bounce_clear(struct judge *j, const char *addr)
{
	int k, b;

	for (k = 0; k < j->ngames; k++) {
		struct game *g = j->games[k];
		for (b = 0; b < g->nbouncing; b++)
			if (str_eq_nocase(g->bouncing[b].addr, addr)) {
				g->bouncing[b] = g->bouncing[--g->nbouncing];
				judge_touch(j, g);
				judge_audit(j, g, "mail came from %s: written to again", addr);
				break;
			}
	}
}
