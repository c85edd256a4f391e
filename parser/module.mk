POUCH_SRCS += \
	parser/commands.c \
	parser/names.c \
	parser/orders.c
