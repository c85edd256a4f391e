#include "rules.h"

#include <string.h>

#include "../../lib/str.h"

static const char *const names[EDITION_MAX] = {
	"2023", "2000", "1982", "1971", "dptg", "webdiplomacy"
};

void
rules_init(struct rules *r, enum edition e)
{
	memset(r, 0, sizeof *r);
	r->edition = e;
	r->dislodged_bounces_unless_h2h = true;
	switch (e) {
	case EDITION_2023:
		r->convoy_adjacent = ADJ_CONVOY_2023;
		r->retreat_to_convoy_origin = true;
		r->civil_disorder = CD_2023;
		break;
	case EDITION_2000:
		r->convoy_adjacent = ADJ_CONVOY_2000;
		r->retreat_to_convoy_origin = true;
		r->civil_disorder = CD_HOME;
		break;
	case EDITION_1982:
		r->convoy_adjacent = ADJ_CONVOY_1982;
		r->retreat_to_convoy_origin = true;
		r->civil_disorder = CD_HOME;
		break;
	case EDITION_1971:
		r->convoy_adjacent = ADJ_CONVOY_1971;
		r->multi_route_any = true;
		r->civil_disorder = CD_HOME;
		break;
	case EDITION_DPTG:
		r->convoy_adjacent = ADJ_CONVOY_EXPLICIT;
		r->retreat_to_convoy_origin = true;
		r->civil_disorder = CD_HOME;
		break;
	case EDITION_WEBDIP:
		r->convoy_adjacent = ADJ_CONVOY_WEBDIP;
		r->retreat_to_convoy_origin = true;
		r->civil_disorder = CD_HOME;
		break;
	default:
		break;
	}
}

int
edition_parse(const char *s, enum edition *e)
{
	int i;

	for (i = 0; i < EDITION_MAX; i++) {
		if (str_eq_nocase(s, names[i])) {
			*e = (enum edition)i;
			return 0;
		}
	}
	return -1;
}

const char *
edition_name(enum edition e)
{
	return e < EDITION_MAX ? names[e] : "?";
}
