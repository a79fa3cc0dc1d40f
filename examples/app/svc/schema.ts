import { defineSchema } from "@svc/server";

export default defineSchema({});
