CREATE TABLE "vaults" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"blob" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vaults" ADD CONSTRAINT "vaults_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;