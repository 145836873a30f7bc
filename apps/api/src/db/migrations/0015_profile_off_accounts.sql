-- Gender and year of birth leave accounts (decision 020, slice 2): they live on the member's
-- devices and in their end-to-end encrypted vault. A dropped column stays in every row's bytes
-- until the row is rewritten, so the values are first set to null (each row gets a new version
-- without them; the old versions are dead rows, pruned by the VACUUM run after migrating).
ALTER TABLE "users" ALTER COLUMN "year_of_birth" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "gender" DROP NOT NULL;--> statement-breakpoint
UPDATE "users" SET "year_of_birth" = NULL, "gender" = NULL;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "year_of_birth";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "gender";--> statement-breakpoint
DROP TYPE "public"."gender";
