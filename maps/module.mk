POUCH_SRCS += \
	maps/geometry.c \
	maps/render.c \
	maps/variant.c
