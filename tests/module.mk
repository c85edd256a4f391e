TESTSUPPORT_SRCS += \
	tests/support/json.c \
	tests/support/testutil.c

TESTS += \
	test_map \
	test_render

BENCHES += \
	bench_render
