CREATE TABLE "credential_withdrawals" (
	"key" text PRIMARY KEY NOT NULL
);
