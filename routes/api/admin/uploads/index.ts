/**
 * `POST /api/admin/uploads`: an admin uploads an image; its `apiDocs` below are its description (docs/api.md,
 * Ungatekeep; docs/decisions.md, Ungatekeep and banners, "Images"; docs/decisions.md, Errors and limits).
 */
import { define } from "@/lib/platform/define.ts";
import { logAdminWrite } from "@/lib/http/admin_audit.ts";
import { InvalidInputError } from "@/lib/errors.ts";
import { fileUrl, MAX_IMAGE_BYTES, storeImage } from "@/lib/files/images.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { describeRoute } from "@/lib/openapi/describe.ts";
import { REFUSALS } from "@/lib/refusals.ts";
import { z } from "zod";

/**
 * 5 MB of file plus 64 KB for the multipart boundaries and part headers; a body over it is refused as the image being
 * over 5 MB, as the form says, not as the body's size.
 */
export const routeOptions: RouteOptions = {
  bodyLimitBytes: MAX_IMAGE_BYTES + 64 * 1024,
  bodyLimitRefusal: REFUSALS.imageTooLarge,
};

export const apiDocs = describeRoute({
  section: "Admin",
  POST: {
    summary: `Upload an image (PNG, JPEG, WebP or GIF, at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB)`,
    description: "The type is checked by the content, not the name. The body may be the image's limit plus the " +
      "multipart framing. The image is served at the answer's `url`.",
    access: ["admin"],
    rawBody: { mediaType: "multipart/form-data", description: "The image in the field `file`." },
    responses: {
      201: { description: "Stored", schema: z.strictObject({ id: z.string(), url: z.string() }) },
      400: "Not a multipart body with a `file`, or not a PNG, JPEG, WebP or GIF image",
      413: `Over ${MAX_IMAGE_BYTES / 1024 / 1024} MB`,
    },
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
    await logAdminWrite(ctx.state, { action: "upload.create", targetKind: "file", targetId: stored.id });
    return Response.json({ id: stored.id, url: fileUrl(stored.id) }, { status: 201 });
  },
});
