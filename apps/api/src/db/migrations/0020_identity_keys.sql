CREATE TABLE "identity_keys" (
	"user_uuid" uuid PRIMARY KEY NOT NULL,
	"key" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD COLUMN "phone_lookup" text NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "otp_challenges_lookup_purpose_uq" ON "otp_challenges" USING btree ("phone_lookup","purpose");