TESTSUPPORT_SRCS += \
	tests/support/json.c \
	tests/support/testutil.c

TESTS += \
	test_address \
	test_compose \
	test_config \
	test_mailer \
	test_map \
	test_mime \
	test_outbox \
	test_spool \
	test_tlsverify

# Helpers of the mail integration tests (tests/mail/run.sh), not unit tests.
TESTS += \
	mail/mailit
