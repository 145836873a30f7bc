ALTER TABLE "questions" ADD COLUMN "twin_id" integer;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_twin_id_questions_id_fk" FOREIGN KEY ("twin_id") REFERENCES "public"."questions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "questions_twin_uq" ON "questions" USING btree ("twin_id");--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_twin_randomized" CHECK ("questions"."twin_id" is null or "questions"."rr_weight" is not null);