TESTSUPPORT_SRCS += \
	tests/support/json.c \
	tests/support/testutil.c

TESTS += \
	test_address \
	test_adjudicate \
	test_commands \
	test_compose \
	test_config \
	test_lib \
	test_mailer \
	test_map \
	test_mime \
	test_oauth \
	test_muna \
	test_muna_map \
	test_outbox \
	test_parser \
	test_render \
	test_spool \
	test_store \
	test_tlsverify

# Helpers of the mail integration tests (tests/mail/run.sh), not unit tests.
TESTS += \
	mail/mailit

BENCHES += \
	bench_adjudicate \
	bench_parser \
	bench_render

# Helper of tests/bench_run.sh: times a command from fork to exit.
BENCH_HELPERS += \
	support/timeit

FUZZERS += \
	fuzz_mime \
	fuzz_parser
