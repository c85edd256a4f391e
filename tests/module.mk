TESTSUPPORT_SRCS += \
	tests/support/json.c \
	tests/support/testutil.c

TESTS += \
	test_map \
	test_parser

BENCHES += \
	bench_parser

FUZZERS += \
	fuzz_parser
