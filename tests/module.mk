TESTSUPPORT_SRCS += \
	tests/support/json.c \
	tests/support/testutil.c

TESTS += \
	test_adjudicate \
	test_lib \
	test_store \
	test_map

BENCHES += \
	bench_adjudicate
