CREATE TABLE "answer_inbox" (
	"id" bigint PRIMARY KEY DEFAULT (floor(random() * 4503599627370496) + 1)::bigint NOT NULL,
	"payload" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credential_issuances" (
	"user_id" integer NOT NULL,
	"survey_id" integer NOT NULL,
	"blinded_digest" text NOT NULL,
	"blind_sig" text NOT NULL,
	CONSTRAINT "credential_issuances_user_id_survey_id_pk" PRIMARY KEY("user_id","survey_id")
);
--> statement-breakpoint
CREATE TABLE "credential_keys" (
	"survey_id" integer PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"public_key" text NOT NULL,
	"private_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "redemptions" (
	"key" text PRIMARY KEY NOT NULL,
	"answer_mac" text NOT NULL,
	"idempotency_mac" text NOT NULL,
	"answered_on" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "credential_issuances" ADD CONSTRAINT "credential_issuances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_issuances" ADD CONSTRAINT "credential_issuances_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_keys" ADD CONSTRAINT "credential_keys_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;