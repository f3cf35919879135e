/** `/privacy`: the legal page of `content/legal/privacy.md` (`components/LegalPage.tsx`). */
import { LegalPage } from "@/components/LegalPage.tsx";
import { legalPageHandler } from "@/lib/legal/handler.ts";

export const handler = legalPageHandler("privacy");
export default LegalPage;
