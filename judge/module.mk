# The judge, room by room (ARCHITECTURE.md). Every .c file of a room is
# built; judge/cli/main.c alone is left out of libpouch.a (it is main()).
POUCH_SRCS += \
	$(wildcard judge/engine/*.c) \
	$(wildcard judge/systems/*.c) \
	$(wildcard judge/*.c) \
	$(wildcard judge/shell/*.c) \
	$(wildcard judge/casefiles/*.c) \
	$(filter-out judge/cli/main.c,$(wildcard judge/cli/*.c))
