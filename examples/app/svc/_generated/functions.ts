import * as hello from "../hello.ts";

export const functions = { "hello:ping": hello.ping };
