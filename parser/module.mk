POUCH_SRCS += \
	parser/commands.c \
	parser/endings.c \
	parser/names.c \
	parser/orders.c
