POUCH_SRCS += \
	maps/variant.c
