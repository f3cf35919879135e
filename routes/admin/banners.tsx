/**
 * `/admin/banners`: the banners manager of the feed's carousel (admins only). docs/decisions.md, Ungatekeep and
 * banners, "Banners"; docs/decisions.md, Islands, "Forms work without JavaScript".
 *
 * Its forms are plain forms the island enhances; `POST` takes them by `intent`: `add` (multipart: `title`, `linkUrl`,
 * an optional image in `image`, stored as `POST /api/admin/uploads` stores it) adds the banner last in the order, 303
 * to `?added={id}`, or the page again (400) with each problem at its field and the fields as sent; `update` (`id`,
 * `orderIndex`, `isActive` ticked or not) saves a row, 303 to `?saved={id}`; `delete` (`id`) deletes one, 303 to
 * `?deleted=1`. A refused row change renders the page again with its sentence (400, 404). Without JavaScript a row's
 * "Delete" is a link to `?delete={id}`, this page with a confirmation naming that banner.
 */
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { DeleteConfirmation } from "@/components/DeleteConfirmation.tsx";
import BannerManager, { BANNER_MANAGER_TEXT, type BannerRow, type RefusedBanner } from "@/islands/BannerManager.tsx";
import {
  type Banner,
  BannerCreateSchema,
  BannerUpdateSchema,
  createBanner,
  deleteBanner,
  listBanners,
  updateBanner,
} from "@/lib/ungatekeep/banners.ts";
import { MAX_IMAGE_BYTES, storeImage } from "@/lib/files/images.ts";
import { adminAudit, logAdminWrite } from "@/lib/http/admin_audit.ts";
import { formFields, readForm, seeOther } from "@/lib/http/form_posts.ts";
import { fieldProblems } from "@/lib/field_messages.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { DomainError, InvalidInputError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { REFUSALS, refusalText } from "@/lib/refusals.ts";
import type { RouteOptions } from "@/lib/platform/route_options.ts";
import { useT } from "@/lib/i18n/context.ts";

/** The add form carries an image: the upload route's body limit and refusal (`routes/api/admin/uploads/index.ts`). */
export const routeOptions: RouteOptions = {
  bodyLimitBytes: MAX_IMAGE_BYTES + 64 * 1024,
  bodyLimitRefusal: REFUSALS.imageTooLarge,
};

interface Data {
  banners: BannerRow[];
  /** What the last plain form did, in the reader's language; "" for nothing. */
  notice: string;
  /** A refused row change's sentence; "" for none. */
  error: string;
  /** A refused add form: the fields as sent and the problems. */
  refused?: RefusedBanner;
  /** The banner whose "Delete" link was followed (`?delete={id}`), to confirm without JavaScript. */
  doomed?: BannerRow;
}

const row = ({ id, title, imageId, linkUrl, isActive, orderIndex }: Banner): BannerRow => ({
  id,
  title,
  imageId,
  linkUrl,
  isActive,
  orderIndex,
});

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const banners = (await listBanners(ctx.state.services.kv, false)).map(row);
    const params = ctx.url.searchParams;
    const { t } = ctx.state;
    const named = (id: string | null) => banners.find((banner) => banner.id === id);
    const added = named(params.get("added"));
    const saved = named(params.get("saved"));
    const notice = added
      ? t("admin.banners.added", { title: added.title })
      : saved
      ? t("admin.banners.saved", { title: saved.title })
      : params.get("deleted") === "1"
      ? t("admin.banners.deletedDone")
      : "";
    return ctx.render({ banners, notice, error: "", doomed: named(params.get("delete")) });
  },

  async POST(req, ctx) {
    const { kv, files, log } = ctx.state.services;
    const { t } = ctx.state;
    const form = await readForm(req);
    const { intent, id, title, linkUrl, orderIndex, isActive } = formFields(form, [
      "intent",
      "id",
      "title",
      "linkUrl",
      "orderIndex",
      "isActive",
    ]);
    const again = async (status: number, problems: Partial<Pick<Data, "error" | "refused">>) => {
      const banners = (await listBanners(kv, false)).map(row);
      return ctx.render({ banners, notice: "", error: "", ...problems }, { status });
    };
    if (intent === "add") {
      const banners = await listBanners(kv, false);
      const input = BannerCreateSchema.safeParse({
        title,
        linkUrl: linkUrl.trim() || null,
        orderIndex: banners.reduce((max, banner) => Math.max(max, banner.orderIndex + 1), 0),
      });
      const refused = (errors: RefusedBanner["errors"], error = "") =>
        again(400, { refused: { title, linkUrl, errors, error } });
      if (!input.success) {
        return await refused(
          Object.fromEntries(
            fieldProblems(input.error.issues).map((problem) => [problem.field, fieldText(t, problem)]),
          ),
        );
      }
      const image = form.get("image");
      let imageId: string | null = null;
      if (image instanceof File && image.size > 0) {
        try {
          imageId = (await storeImage(files, new Uint8Array(await image.arrayBuffer()))).id;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          return await refused({}, refusalText(t, error));
        }
        await logAdminWrite(ctx.state, { action: "upload.create", targetKind: "file", targetId: imageId });
      }
      const audit = adminAudit(ctx.state, { action: "banner.create", targetKind: "banner" });
      const banner = await createBanner(kv, { files, input: { ...input.data, imageId }, audit });
      return seeOther(`/admin/banners?added=${banner.id}`);
    }
    try {
      if (intent === "update") {
        const patch = BannerUpdateSchema.safeParse({ orderIndex: Number(orderIndex), isActive: isActive === "true" });
        if (!patch.success) return await again(400, { error: t("admin.banners.orderProblem") });
        const audit = adminAudit(ctx.state, { action: "banner.update", targetKind: "banner" });
        await updateBanner(kv, { files, log, id, patch: patch.data, audit });
        return seeOther(`/admin/banners?saved=${encodeURIComponent(id)}`);
      }
      if (intent === "delete") {
        const audit = adminAudit(ctx.state, { action: "banner.delete", targetKind: "banner" });
        await deleteBanner(kv, { files, log, id, audit });
        return seeOther("/admin/banners?deleted=1");
      }
      throw new InvalidInputError("Unknown intent");
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return await again(errorResponse(error).status, { error: refusalText(t, error) });
    }
  },
});

export default define.page<Data>(function AdminBannersPage({ data }) {
  const t = useT();
  const { doomed } = data;
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.banners") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.banners")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.banners.lead")}</p>
      </div>
      {doomed && (
        <DeleteConfirmation
          id="delete-banner"
          title={t("admin.banners.deleteTitle")}
          text={t("admin.banners.deleteText", { title: doomed.title })}
          action="/admin/banners"
          fields={{ intent: "delete", id: doomed.id }}
          cancelHref="/admin/banners"
        />
      )}
      <BannerManager
        initial={data.banners}
        notice={data.notice}
        error={data.error}
        refused={data.refused}
        text={t.island(BANNER_MANAGER_TEXT)}
      />
    </section>
  );
});
