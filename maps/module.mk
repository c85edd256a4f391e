POUCH_SRCS += \
	maps/geometry.c \
	maps/layout.c \
	maps/outline.c \
	maps/pages.c \
	maps/render.c \
	maps/svgdoc.c \
	maps/variant.c
