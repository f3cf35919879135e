/** Shared steps of the Ungatekeep API tests: uploading images and creating posts as an admin. */
import { gradientPng } from "@/lib/demo/images.ts";
import type { TestApp, TestUser } from "@/tests/helpers/app.ts";

/** A small real PNG. */
export const PNG = gradientPng({ width: 4, height: 2, from: [20, 40, 200], to: [240, 120, 20] });

/** Sends `bytes` as the multipart field `file`, declared as `type`. */
export function upload(t: TestApp, admin: TestUser, bytes: Uint8Array, type = "image/png"): Promise<Response> {
  const form = new FormData();
  form.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), "upload.bin");
  return t.fetch("/api/admin/uploads", { method: "POST", headers: admin.headers, body: form });
}

/** Uploads a PNG and returns its id. */
export async function uploadedId(t: TestApp, admin: TestUser): Promise<string> {
  const res = await upload(t, admin, PNG);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return (await res.json()).id;
}

/** A valid create body with `fields` over the defaults (a published announcement). */
export function postBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: "Hello",
    content: "First line\n\nSecond line\nThird line",
    tag: "announcement",
    isPublished: true,
    ...fields,
  };
}

/** Creates a post as `admin` and returns it. */
export async function createPost(t: TestApp, admin: TestUser, fields: Record<string, unknown> = {}) {
  const res = await t.json("POST", "/api/admin/ungatekeep", { body: postBody(fields), headers: admin.headers });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return (await res.json()).post;
}
