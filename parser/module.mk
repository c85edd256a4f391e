POUCH_SRCS += \
	parser/names.c \
	parser/orders.c
