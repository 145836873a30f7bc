CREATE TABLE "auth_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD COLUMN "requester" text;--> statement-breakpoint
ALTER TABLE "otp_challenges" ADD COLUMN "requester_tries" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "auth_limits_ends_idx" ON "auth_limits" USING btree ("ends_at");