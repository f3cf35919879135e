/**
 * `/admin/coupons`: coupons with search by code, create, deactivate and delete, uses against the limit (admins only).
 * The page renders the coupons; without JavaScript (docs/decisions.md, Islands, "Forms work without JavaScript") the
 * new coupon form, a row's Active switch with its Save button, and its Delete (a link to `?delete={id}`, this page
 * with a confirmation naming that coupon) are plain forms; `POST` takes them by `intent`: `create` (the form's fields
 * as typed: `code`, `discountType`, `discountValue`, `usageLimit` (empty: none), `perUserLimit` (empty: 1),
 * `expiresAt` in IST) creates the coupon as `POST /api/admin/coupons` does, 303 to `?created={id}`, or renders the
 * page again (400) with each problem at its field and the fields as sent; `update` (`id`, `isActive` `true` when
 * ticked) 303 to `?saved={id}`; `delete` (`id`) 303 to `?deleted=1`, both back to the `search` the form carries
 * (docs/decisions.md, Islands, "A row's way back keeps the list"); a refused row renders the page with its sentence. `?search=` (the search's `GET` form without JavaScript) renders the coupons whose code holds it.
 */
import { z } from "zod";
import { define } from "@/lib/platform/define.ts";
import { PageHead } from "@/components/PageHead.tsx";
import { Notice } from "@/components/forms.tsx";
import { DeleteConfirmation } from "@/components/DeleteConfirmation.tsx";
import AdminCouponsTable, { ADMIN_COUPONS_TEXT, type RefusedCoupon } from "@/islands/AdminCouponsTable.tsx";
import {
  type Coupon,
  CouponCreateSchema,
  CouponSearchSchema,
  createCoupon,
  deleteCoupon,
  listCoupons,
  updateCoupon,
} from "@/lib/coupons/coupons.ts";
import { fromIstInput } from "@/lib/dates.ts";
import { adminAudit } from "@/lib/http/admin_audit.ts";
import { formFields, readForm, seeOther } from "@/lib/http/form_posts.ts";
import { fieldProblems } from "@/lib/field_messages.ts";
import { fieldText } from "@/lib/i18n/field_text.ts";
import { DomainError, InvalidInputError, NotFoundError } from "@/lib/errors.ts";
import { errorResponse } from "@/lib/http/errors.ts";
import { REFUSALS, refusalText } from "@/lib/refusals.ts";
import { useT } from "@/lib/i18n/context.ts";
import { listAddress } from "@/lib/browser/list_address.ts";

interface Data {
  coupons: Coupon[];
  /** The search the rows answer ("": none). */
  search: string;
  /** What the last plain form did, in the reader's language; "" for nothing. */
  notice: string;
  /** A refused row's sentence; "" for none. */
  error: string;
  /** A refused new coupon form: the fields as sent and the problems. */
  refused?: RefusedCoupon;
  /** The coupon whose "Delete" link was followed (`?delete={id}`), to confirm without JavaScript. */
  doomed?: Coupon;
}

const FIELDS = ["code", "discountType", "discountValue", "usageLimit", "perUserLimit", "expiresAt"] as const;

/** A row's form: its intent and coupon id (ids are UUIDs; a longer one names no coupon) and its Active switch. */
const rowFormSchema = z.object({
  intent: z.enum(["update", "delete"]),
  id: z.string().min(1).max(100),
  isActive: z.string().transform((value) => value === "true"),
});

/** A number field as typed: empty is `empty`, anything else its number (NaN for words, which the schema refuses). */
const numberOf = (text: string, empty: number | null | undefined) => text.trim() === "" ? empty : Number(text);

export const handler = define.handlers<Data>({
  async GET(_req, ctx) {
    const params = ctx.url.searchParams;
    const asked = CouponSearchSchema.safeParse({ search: params.get("search") || undefined });
    const search = asked.success ? asked.data.search ?? "" : "";
    const coupons = await listCoupons(ctx.state.services.kv, search);
    const { t } = ctx.state;
    const named = (id: string | null) => coupons.find((coupon) => coupon.id === id);
    const created = named(params.get("created"));
    const saved = named(params.get("saved"));
    const notice = created
      ? t("admin.coupons.created", { code: created.code })
      : saved
      ? t(saved.isActive ? "admin.coupons.activated" : "admin.coupons.deactivated", { code: saved.code })
      : params.get("deleted") === "1"
      ? t("admin.coupons.deletedDone")
      : "";
    return ctx.render({ coupons, search, notice, error: "", doomed: named(params.get("delete")) });
  },

  async POST(req, ctx) {
    const { kv } = ctx.state.services;
    const { t } = ctx.state;
    const form = await readForm(req);
    const again = async (status: number, problems: Partial<Pick<Data, "error" | "refused">>) =>
      ctx.render({ coupons: await listCoupons(kv), search: "", notice: "", error: "", ...problems }, { status });
    if (form.get("intent") === "create") {
      const values = formFields(form, FIELDS);
      const refused = (status: number, errors: RefusedCoupon["errors"], error = "") =>
        again(status, { refused: { values, errors, error } });
      const input = CouponCreateSchema.safeParse({
        code: values.code,
        discountType: values.discountType,
        discountValue: numberOf(values.discountValue, undefined),
        usageLimit: numberOf(values.usageLimit, null),
        perUserLimit: numberOf(values.perUserLimit, 1),
        expiresAt: values.expiresAt.trim() === "" ? null : fromIstInput(values.expiresAt) ?? values.expiresAt,
      });
      const worded = (problems: { field: string; message: string }[]) =>
        Object.fromEntries(problems.map((problem) => [problem.field, fieldText(t, problem)]));
      if (!input.success) return await refused(400, worded(fieldProblems(input.error.issues)));
      try {
        const audit = adminAudit(ctx.state, { action: "coupon.create", targetKind: "coupon" });
        const coupon = await createCoupon(kv, input.data, audit);
        return seeOther(`/admin/coupons?created=${encodeURIComponent(coupon.id)}`);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const fields = error instanceof InvalidInputError ? error.fields : [];
        const status = errorResponse(error).status;
        return await refused(status, worded(fields), fields.length > 0 ? "" : refusalText(t, error));
      }
    }
    // The search a row's form was sent from (the page checks it when it is read again).
    const back = form.get("search")?.toString();
    const row = rowFormSchema.safeParse(formFields(form, ["intent", "id", "isActive"]));
    try {
      if (!row.success) throw new NotFoundError(REFUSALS.couponNotFound);
      const { intent, id, isActive } = row.data;
      if (intent === "delete") {
        await deleteCoupon(kv, id, adminAudit(ctx.state, { action: "coupon.delete", targetKind: "coupon" }));
        return seeOther(listAddress("/admin/coupons", { search: back }, { deleted: "1" }));
      }
      const audit = adminAudit(ctx.state, { action: "coupon.update", targetKind: "coupon" });
      await updateCoupon(kv, { id, patch: { isActive }, audit });
      return seeOther(listAddress("/admin/coupons", { search: back }, { saved: id }));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return await again(row.success ? errorResponse(error).status : 400, { error: refusalText(t, error) });
    }
  },
});

export default define.page<Data>(function AdminCouponsPage({ data }) {
  const t = useT();
  const { doomed } = data;
  return (
    <section aria-labelledby="page-title" class="space-y-6">
      <PageHead title={t("admin.pageTitle", { page: t("admin.nav.coupons") })} />
      <div>
        <h1 id="page-title" class="text-3xl font-bold tracking-tight text-slate-900">{t("admin.nav.coupons")}</h1>
        <p class="mt-2 text-slate-700">{t("admin.coupons.lead")}</p>
      </div>
      {data.notice && <Notice kind="success" title={data.notice} />}
      {data.error && <Notice kind="error" title={t("admin.list.changeNotSaved")}>{data.error}</Notice>}
      {doomed && (
        <DeleteConfirmation
          id="delete-coupon"
          title={t("admin.coupons.deleteTitle")}
          text={t("admin.coupons.deleteText", { code: doomed.code })}
          action="/admin/coupons"
          fields={{ intent: "delete", id: doomed.id, ...data.search ? { search: data.search } : {} }}
          cancelHref={listAddress("/admin/coupons", { search: data.search })}
        />
      )}
      <AdminCouponsTable
        initial={data.coupons}
        search={data.search}
        refused={data.refused}
        text={t.island(ADMIN_COUPONS_TEXT)}
      />
    </section>
  );
});
