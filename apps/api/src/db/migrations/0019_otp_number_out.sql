-- Issue 28, crypto-shredding: challenges live minutes; the ones of the numbers in the clear go (a code asked during the upgrade is asked again), and new ones are found by the number's lookup HMAC (0020).
DELETE FROM "otp_challenges";--> statement-breakpoint
DROP INDEX "otp_challenges_phone_purpose_uq";--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "phone_e164" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "name" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "name" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_lookup" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "identity" text;--> statement-breakpoint
ALTER TABLE "otp_challenges" DROP COLUMN "phone_e164";--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_phone_lookup_unique" UNIQUE("phone_lookup");