/**
 * `POST /api/admin/uploads` (admin, by `/api/admin`'s middleware): one image in the multipart field `file`, checked by
 * content (PNG, JPEG, WebP, GIF) and at most 5 MB → 201 `{id, url}`. The body may be 5 MB plus the multipart framing.
 * docs/decisions.md, Ungatekeep and banners, "Images"; docs/decisions.md, Errors and limits.
 */
import { define } from "@/lib/platform/define.ts";
import { InvalidInputError } from "@/lib/errors.ts";
import { fileUrl, MAX_IMAGE_BYTES, storeImage } from "@/lib/files/images.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";

/** 5 MB of file plus 64 KB for the multipart boundaries and part headers. */
export const routeOptions: RouteOptions = { bodyLimitBytes: MAX_IMAGE_BYTES + 64 * 1024 };

export const apiDocs = describeRoute({
  POST: {
    summary: "Upload an image (PNG, JPEG, WebP or GIF, at most 5 MB)",
    access: ["admin"],
    rawBody: { mediaType: "multipart/form-data", description: "The image in the field `file`." },
    responses: { 201: "`{id, url}`", 413: "Over 5 MB" },
  },
});

export const handler = define.handlers({
  async POST(req, ctx) {
    let form: FormData;
    try {
      form = await req.formData();
    } catch {
      throw new InvalidInputError("Send the image as multipart/form-data in the field file");
    }
    const file = form.get("file");
    if (!(file instanceof File)) throw new InvalidInputError("Send the image as multipart/form-data in the field file");
    const stored = await storeImage(ctx.state.services.files, new Uint8Array(await file.arrayBuffer()));
    return Response.json({ id: stored.id, url: fileUrl(stored.id) }, { status: 201 });
  },
});
