CREATE TABLE "research_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"gid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"surveys" uuid[],
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "research_tokens_gid_unique" UNIQUE("gid"),
	CONSTRAINT "research_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "research_tokens" ADD CONSTRAINT "research_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ratings_question_idx" ON "ratings" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "timings_respondent_idx" ON "timings" USING btree ("respondent_id");